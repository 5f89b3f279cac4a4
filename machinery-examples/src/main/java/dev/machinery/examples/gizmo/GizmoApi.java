package dev.machinery.examples.gizmo;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;

/** Registers the Gizmo API: versions v2 (preferred) and v1, and the internal form. Stateless. */
public final class GizmoApi {
  /** The group. */
  public static final String GROUP = "gizmos.example.dev";

  /** The older version. */
  public static final GroupVersion V1 = GroupVersion.of(GROUP, "v1");

  /** The newer, preferred version. */
  public static final GroupVersion V2 = GroupVersion.of(GROUP, "v2");

  private GizmoApi() {}

  /**
   * Builds the Gizmo scheme.
   *
   * @return the scheme
   */
  public static Scheme scheme() {
    return Scheme.builder()
        .addKnownTypes(V1, dev.machinery.examples.gizmo.v1.Gizmo.class)
        .addKnownTypes(V2, dev.machinery.examples.gizmo.v2.Gizmo.class)
        .addInternalTypes(GROUP, dev.machinery.examples.gizmo.internal.Gizmo.class)
        .setVersionPriority(V2, V1)
        .addDefaultingFunction(
            dev.machinery.examples.gizmo.v1.Gizmo.class,
            gizmo -> gizmo.setSize(gizmo.getSize() == null ? 1 : gizmo.getSize()))
        .addDefaultingFunction(
            dev.machinery.examples.gizmo.v2.Gizmo.class,
            gizmo -> gizmo.setSize(gizmo.getSize() == null ? 1 : gizmo.getSize()))
        .addConversions(
            new dev.machinery.examples.gizmo.v1.GeneratedConversions(),
            new dev.machinery.examples.gizmo.v1.GeneratedDeepCopy(),
            new dev.machinery.examples.gizmo.v2.GeneratedConversions(),
            new dev.machinery.examples.gizmo.v2.GeneratedDeepCopy(),
            new dev.machinery.examples.gizmo.internal.GeneratedDeepCopy())
        .requireInternalVersions()
        .build();
  }
}
