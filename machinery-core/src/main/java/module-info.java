/**
 * Machinery core: schema identifiers, the {@link dev.machinery.core.runtime.Scheme} and the JSON
 * and YAML codecs.
 *
 * <p>Exported packages: {@link dev.machinery.core.schema} (group/version/kind/resource
 * identifiers), {@link dev.machinery.core.runtime} (objects and the Scheme), {@link
 * dev.machinery.core.codec} (decoding and encoding) and {@link dev.machinery.core.patch} (JSON
 * patch, JSON merge patch and strategic merge patch, applied and created two- and three-way, as
 * Go's k8s.io/apimachinery/pkg/util/strategicpatch and jsonmergepatch) and {@link
 * dev.machinery.core.fieldpath} (field sets and their {@code FieldsV1} JSON) and {@link
 * dev.machinery.core.typed} (the schemas of server-side apply and the field sets of values).
 */
module dev.machinery.core {
  requires transitive dev.machinery.conversion;
  requires transitive com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.dataformat.yaml;
  requires org.yaml.snakeyaml;

  exports dev.machinery.core.schema;
  exports dev.machinery.core.runtime;
  exports dev.machinery.core.codec;
  exports dev.machinery.core.patch;
  exports dev.machinery.core.fieldpath;
  exports dev.machinery.core.typed;
  exports dev.machinery.core.merge;
}
