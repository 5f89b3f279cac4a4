package dev.machinery.unversioned.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.schema.GroupVersionKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The codec's JSON names and kind lookup against Kubernetes 1.33's OpenAPI document (its
 * definitions' property names and group-version-kinds, in {@code swagger-properties.tsv}):
 * definitions and messages correspond by name ({@code io.k8s.api.apps.v1.Deployment} is {@code
 * k8s.io.api.apps.v1.Deployment}).
 */
class KubeJsonTest {
  private static final ProtoSchema SCHEMA = KubeProtos.v1_33();
  private static final SchemaProtobufCodec CODEC = SchemaProtobufCodec.create(SCHEMA);

  private record Definition(String name, String type, Set<String> properties, List<String> kinds) {}

  private static List<Definition> definitions() {
    try (InputStream in =
        KubeJsonTest.class.getResourceAsStream("/kube-api/v1.33/swagger-properties.tsv")) {
      List<Definition> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String[] parts = line.split("\t", -1);
        out.add(
            new Definition(
                parts[0],
                parts[1],
                new TreeSet<>(
                    Arrays.asList(parts[2].isEmpty() ? new String[0] : parts[2].split(","))),
                parts[3].isEmpty() ? List.of() : List.of(parts[3].split(";"))));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Optional<MessageDescriptor> messageOf(Definition definition) {
    String name = definition.name();
    if (!name.startsWith("io.k8s.")) {
      return Optional.empty();
    }
    return SCHEMA.message(
        "k8s.io."
            + name.substring("io.k8s.".length())
                .replace("apiextensions-apiserver", "apiextensions_apiserver"));
  }

  /** The JSON names a message's object has: its fields', inline fields expanded. */
  private static Set<String> jsonNames(MessageDescriptor message) {
    Set<String> names = new TreeSet<>();
    for (FieldDescriptor field : message.fields()) {
      if (KubeJson.inline(message, field)) {
        names.addAll(jsonNames(SCHEMA.message(field.messageType()).orElseThrow()));
      } else {
        names.add(KubeJson.jsonName(message, field));
      }
    }
    return names;
  }

  @Test
  void everyObjectDefinitionHasTheJsonNamesOfItsMessage() {
    int compared = 0;
    List<String> problems = new ArrayList<>();
    for (Definition definition : definitions()) {
      Optional<MessageDescriptor> message = messageOf(definition);
      if (message.isEmpty()
          || KubeJson.special(message.get()) != KubeJson.Special.NONE
          || !definition.type().equals("object")) {
        continue;
      }
      Set<String> expected = new TreeSet<>(definition.properties());
      Set<String> actual = jsonNames(message.get());
      // TypeMeta is not in the messages: the envelope carries it.
      for (String typeMeta : List.of("apiVersion", "kind")) {
        if (!actual.contains(typeMeta)) {
          expected.remove(typeMeta);
        }
      }
      if (!expected.equals(actual)) {
        problems.add(definition.name() + ": OpenAPI " + expected + ", codec " + actual);
      }
      compared++;
    }
    assertEquals(List.of(), problems);
    assertEquals(690, compared);
  }

  @Test
  void theDefinitionsWithoutPropertiesAreTheSpecialMessages() {
    Set<String> special = new TreeSet<>();
    for (Definition definition : definitions()) {
      messageOf(definition)
          .filter(m -> KubeJson.special(m) != KubeJson.Special.NONE)
          .ifPresent(m -> special.add(m.simpleName() + "=" + KubeJson.special(m)));
    }
    assertEquals(
        Set.of(
            "FieldsV1=RAW_JSON",
            "JSON=RAW_JSON",
            "RawExtension=RAW_JSON",
            "JSONSchemaPropsOrArray=SCHEMA_OR_ARRAY",
            "JSONSchemaPropsOrBool=SCHEMA_OR_BOOL",
            "JSONSchemaPropsOrStringArray=SCHEMA_OR_STRING_ARRAY",
            "MicroTime=MICRO_TIME",
            "Time=TIME",
            "Quantity=QUANTITY",
            "IntOrString=INT_OR_STRING"),
        special);
  }

  @Test
  void theWrapperMessagesAreFoundByTheirCommentTags() {
    Set<String> wrappers = new TreeSet<>();
    for (MessageDescriptor message : SCHEMA.messages()) {
      if (KubeJson.special(message) == KubeJson.Special.STRING_LIST) {
        wrappers.add(message.fullName());
      }
    }
    assertEquals(
        Set.of(
            "k8s.io.api.authentication.v1.ExtraValue",
            "k8s.io.api.authentication.v1beta1.ExtraValue",
            "k8s.io.api.authorization.v1.ExtraValue",
            "k8s.io.api.authorization.v1beta1.ExtraValue",
            "k8s.io.api.certificates.v1.ExtraValue",
            "k8s.io.api.certificates.v1beta1.ExtraValue",
            "k8s.io.apimachinery.pkg.apis.meta.v1.Verbs"),
        wrappers);
  }

  @Test
  void everyKindOfTheOpenApiDocumentFindsItsDefinitionsMessage() {
    int kinds = 0;
    List<String> problems = new ArrayList<>();
    for (Definition definition : definitions()) {
      Optional<MessageDescriptor> message = messageOf(definition);
      for (String kind : definition.kinds()) {
        String[] parts = kind.split("/", -1);
        GroupVersionKind gvk = GroupVersionKind.of(parts[0], parts[1], parts[2]);
        Optional<String> found = CODEC.messageFor(gvk).map(MessageDescriptor::fullName);
        if (!found.equals(message.map(MessageDescriptor::fullName))) {
          problems.add(gvk + ": " + definition.name() + " but found " + found);
        }
        kinds++;
      }
    }
    assertEquals(List.of(), problems);
    assertEquals(301, kinds);
  }

  @Test
  void mapsGroupsToPackages() {
    assertEquals(
        "k8s.io.api.apps.v1.Deployment",
        CODEC.messageFor(GroupVersionKind.of("apps", "v1", "Deployment")).orElseThrow().fullName());
    assertEquals(
        "k8s.io.api.rbac.v1.ClusterRoleList",
        CODEC
            .messageFor(GroupVersionKind.of("rbac.authorization.k8s.io", "v1", "ClusterRoleList"))
            .orElseThrow()
            .fullName());
    assertEquals(
        "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition",
        CODEC
            .messageFor(
                GroupVersionKind.of("apiextensions.k8s.io", "v1", "CustomResourceDefinition"))
            .orElseThrow()
            .fullName());
    assertEquals(
        "k8s.io.api.apiserverinternal.v1alpha1.StorageVersion",
        CODEC
            .messageFor(
                GroupVersionKind.of("internal.apiserver.k8s.io", "v1alpha1", "StorageVersion"))
            .orElseThrow()
            .fullName());
    assertEquals(
        "k8s.io.apimachinery.pkg.apis.meta.v1.Status",
        CODEC.messageFor(GroupVersionKind.of("", "v1", "Status")).orElseThrow().fullName());
    assertEquals(
        "k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions",
        CODEC
            .messageFor(GroupVersionKind.of("batch", "v1", "DeleteOptions"))
            .orElseThrow()
            .fullName());
    assertFalse(CODEC.has(GroupVersionKind.of("apps", "v1", "Status")));
    assertFalse(CODEC.has(GroupVersionKind.of("apps", "v1", "DeploymentSpec2")));
    assertFalse(CODEC.has(GroupVersionKind.of("example.com", "v1", "Widget")));
    assertFalse(CODEC.has(GroupVersionKind.of("meta.k8s.io", "v1", "Table")));
  }

  @Test
  void theZeroRuleFollowsGosPointersAndOmitempty() {
    int covered = 0;
    int dropped = 0;
    for (MessageDescriptor message : SCHEMA.messages()) {
      boolean any = false;
      for (FieldDescriptor field : message.fields()) {
        KubeJson.ZeroRule rule = KubeJson.zeroRule(message, field);
        any |= rule != KubeJson.ZeroRule.DROP_EMPTY_STRING;
        if (rule == KubeJson.ZeroRule.DROP_ZERO) {
          assertTrue(
              field.scalar() != null && field.label() == FieldDescriptor.Label.OPTIONAL,
              message.fullName() + "." + field.name());
          dropped++;
        }
      }
      covered += any ? 1 : 0;
    }
    // Kubernetes 1.33's Go types: 759 scalar fields without a pointer and with omitempty, in
    // the 1,142 messages whose every field a Go struct declares (the other 17 are the special
    // messages, the ExtraValue wrappers, EphemeralContainer, v1 List and an alias type).
    assertEquals(759, dropped);
    assertEquals(1142, covered);
    MessageDescriptor spec = SCHEMA.message("k8s.io.api.apps.v1.DeploymentSpec").orElseThrow();
    // minReadySeconds int32 `json:",omitempty"`; replicas *int32; paused bool omitempty
    assertEquals(
        KubeJson.ZeroRule.DROP_ZERO,
        KubeJson.zeroRule(spec, spec.field("minReadySeconds").orElseThrow()));
    assertEquals(
        KubeJson.ZeroRule.KEEP, KubeJson.zeroRule(spec, spec.field("replicas").orElseThrow()));
    assertEquals(
        KubeJson.ZeroRule.DROP_ZERO, KubeJson.zeroRule(spec, spec.field("paused").orElseThrow()));
    MessageDescriptor claim =
        SCHEMA.message("k8s.io.api.core.v1.PersistentVolumeClaimSpec").orElseThrow();
    assertEquals(
        KubeJson.ZeroRule.KEEP,
        KubeJson.zeroRule(claim, claim.field("storageClassName").orElseThrow()));
    MessageDescriptor port = SCHEMA.message("k8s.io.api.core.v1.ContainerPort").orElseThrow();
    assertEquals(
        KubeJson.ZeroRule.KEEP, KubeJson.zeroRule(port, port.field("containerPort").orElseThrow()));
  }

  /**
   * Which zeros Go leaves out of its JSON, by the omitempty table of Kubernetes 1.33's Go types:
   * fields held without a pointer and written {@code omitempty}, asked by their JSON names (a field
   * renamed in JSON by the name it has there).
   */
  @Test
  void omitsZeroAnswersByGosOmitemptyFields() {
    assertTrue(KubeProtos.omitsZero("k8s.io.api.core.v1.PodSpec", "hostNetwork"));
    assertTrue(KubeProtos.omitsZero("k8s.io.api.core.v1.ContainerPort", "hostPort"));
    assertFalse(KubeProtos.omitsZero("k8s.io.api.core.v1.ContainerPort", "containerPort"));
    assertFalse(KubeProtos.omitsZero("k8s.io.api.core.v1.ConfigMap", "immutable"), "a pointer");
    assertTrue(KubeProtos.omitsZero("k8s.io.api.authentication.v1.BoundObjectReference", "uid"));
    assertFalse(KubeProtos.omitsZero("k8s.io.api.authentication.v1.BoundObjectReference", "uID"));
    assertFalse(KubeProtos.omitsZero("example.com.v1.Widget", "size"), "not Kubernetes' type");
  }
}
