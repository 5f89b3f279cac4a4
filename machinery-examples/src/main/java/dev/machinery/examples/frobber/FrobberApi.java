package dev.machinery.examples.frobber;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;

/**
 * The Frobber group of api-changes.md: {@code v6} (the storage version, since {@code v7beta1} is
 * beta) and {@code v7beta1}, converted through the internal form. Stateless.
 */
public final class FrobberApi {
  /** The group. */
  public static final String GROUP = "frobbers.example.dev";

  /** The stable version, where objects are stored. */
  public static final GroupVersion V6 = GroupVersion.of(GROUP, "v6");

  /** The beta version with the clean {@code params} list. */
  public static final GroupVersion V7BETA1 = GroupVersion.of(GROUP, "v7beta1");

  private FrobberApi() {}

  /**
   * Adds the Frobber kinds, internal form and generated code to a scheme builder.
   *
   * @param builder the builder
   * @return the builder
   */
  public static Scheme.Builder addToScheme(Scheme.Builder builder) {
    return builder
        .addKnownTypes(V6, dev.machinery.examples.frobber.v6.Frobber.class)
        .addKnownTypes(V7BETA1, dev.machinery.examples.frobber.v7beta1.Frobber.class)
        .addInternalTypes(GROUP, dev.machinery.examples.frobber.internal.Frobber.class)
        .setVersionPriority(V6, V7BETA1)
        .addConversions(
            new dev.machinery.examples.frobber.v6.GeneratedConversions(),
            new dev.machinery.examples.frobber.v6.GeneratedDeepCopy(),
            new dev.machinery.examples.frobber.v7beta1.GeneratedConversions(),
            new dev.machinery.examples.frobber.v7beta1.GeneratedDeepCopy(),
            new dev.machinery.examples.frobber.internal.GeneratedDeepCopy());
  }
}
