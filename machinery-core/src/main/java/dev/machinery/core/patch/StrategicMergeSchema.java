package dev.machinery.core.patch;

import java.lang.reflect.Type;
import java.util.Objects;

/**
 * The patch strategies and merge keys of a kind's fields, as a {@link StrategicMergePatch} reads
 * them: which lists merge (and by which key), which objects are replaced whole, which clear the
 * fields a patch's {@code $retainKeys} leaves out. Two sources give one: a Java type's annotations
 * ({@link #ofType}) and an OpenAPI document's {@code x-kubernetes-patch-strategy} and {@code
 * x-kubernetes-patch-merge-key} extensions ({@link OpenApiPatchSchemas#forDefinition}); a patch
 * means the same with either when they describe the same fields.
 *
 * <p>Immutable and safe to share between threads; nested types are resolved the first time a patch
 * reaches them.
 */
public final class StrategicMergeSchema {
  private final PatchSchema root;
  private final String name;

  StrategicMergeSchema(PatchSchema root, String name) {
    this.root = root;
    this.name = name;
  }

  /**
   * Returns the schema of a Java type: its properties as the codecs see them, with their {@link
   * PatchStrategy} and {@link PatchMergeKey} annotations.
   *
   * @param type the type, such as {@code Deployment.class}
   * @return the schema
   */
  public static StrategicMergeSchema ofType(Type type) {
    Objects.requireNonNull(type, "type");
    return new StrategicMergeSchema(JavaPatchSchemas.of(type), type.getTypeName());
  }

  /**
   * Returns whether the schema says nothing about the value's fields (an unstructured object's
   * class, a schema of any value): a strategic merge patch then merges as a JSON merge patch does.
   *
   * @return whether no field has a known schema
   */
  public boolean isEmpty() {
    return root.shape == PatchSchema.Shape.NONE;
  }

  PatchSchema root() {
    return root;
  }

  /** Returns the type or definition the schema was made from. */
  @Override
  public String toString() {
    return "StrategicMergeSchema[" + name + "]";
  }
}
