package dev.machinery.cel;

import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import java.util.List;
import java.util.Map;

/**
 * A schema node that has rules, or whose values contain nodes that do, with its compiled rules and
 * the nodes below it. Immutable; thread-safe.
 *
 * @param schema the node's schema
 * @param resource whether its values are whole resources (the root, an embedded resource)
 * @param rules its compiled rules
 * @param properties the nodes of its properties that have rules
 * @param additional the node of its {@code additionalProperties}, or null
 * @param items the node of its {@code items}, or null
 */
record SchemaNode(
    JSONSchemaProps schema,
    boolean resource,
    List<CompiledRule> rules,
    Map<String, SchemaNode> properties,
    SchemaNode additional,
    SchemaNode items) {

  /** The schema's type as kube-apiserver shows it as the value of a failed rule. */
  String type() {
    return schema.type() == null ? "" : schema.type();
  }
}
