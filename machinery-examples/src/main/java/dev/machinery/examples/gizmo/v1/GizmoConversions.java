package dev.machinery.examples.gizmo.v1;

import dev.machinery.conversion.ConversionScope;
import dev.machinery.conversion.ConvertsProperties;

/** The hand-written part of v1's conversions: v1 calls the maintainer "owner". Stateless. */
public final class GizmoConversions {
  private GizmoConversions() {}

  /**
   * Converts a v1 Gizmo to the internal form: the generated code does every field but owner.
   *
   * @param in the v1 gizmo, or {@code null}
   * @param scope the conversion scope
   * @return the internal gizmo
   */
  @ConvertsProperties("owner")
  public static dev.machinery.examples.gizmo.internal.Gizmo convertV1GizmoToInternalGizmo(
      Gizmo in, ConversionScope scope) {
    if (in == null) {
      return null;
    }
    dev.machinery.examples.gizmo.internal.Gizmo out =
        GeneratedConversions.autoConvertV1GizmoToInternalGizmo(in, scope);
    out.setMaintainer(in.getOwner());
    return out;
  }

  /**
   * Converts an internal Gizmo to v1.
   *
   * @param in the internal gizmo, or {@code null}
   * @param scope the conversion scope
   * @return the v1 gizmo
   */
  @ConvertsProperties("maintainer")
  public static Gizmo convertInternalGizmoToV1Gizmo(
      dev.machinery.examples.gizmo.internal.Gizmo in, ConversionScope scope) {
    if (in == null) {
      return null;
    }
    Gizmo out = GeneratedConversions.autoConvertInternalGizmoToV1Gizmo(in, scope);
    out.setOwner(in.getMaintainer());
    return out;
  }
}
