package dev.machinery.unversioned.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Facts of Kubernetes' api/validation objectmeta tests, carried over. */
class ObjectMetaValidationTest {
  private static final FieldPath META = FieldPath.of("metadata");

  private static ObjectMeta meta(String name, String namespace) {
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    meta.setNamespace(namespace);
    return meta;
  }

  private static List<String> texts(List<FieldError> errors) {
    return errors.stream().map(FieldError::toString).collect(Collectors.toList());
  }

  @Test
  void aValidObjectHasNoErrors() {
    ObjectMeta meta = meta("web", "default");
    meta.setLabels(Map.of("app", "web", "example.com/tier", ""));
    meta.setAnnotations(Map.of("kubectl.kubernetes.io/last-applied-configuration", "{}"));
    meta.setFinalizers(List.of("example.com/cleanup"));
    assertEquals(
        List.of(),
        ObjectMetaValidation.validateCreate(meta, true, Validation::nameIsDNSSubdomain, META));
  }

  @Test
  void createNamesEveryFieldThatIsWrong() {
    ObjectMeta meta = meta("", "");
    meta.setGenerateName("Web_");
    meta.setLabels(Map.of("-bad", "ok", "ok", "no spaces"));
    meta.setGeneration(-1);
    assertEquals(
        List.of(
            "metadata.generateName: Invalid value: \"Web_\": a lowercase RFC 1123 subdomain must"
                + " consist of lower case alphanumeric characters, '-' or '.', and must start and"
                + " end with an alphanumeric character (e.g. 'example.com', regex used for"
                + " validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            "metadata.name: Required value: name or generateName is required",
            "metadata.namespace: Required value",
            "metadata.generation: Invalid value: -1: must be greater than or equal to 0",
            "metadata.labels: Invalid value: \"-bad\": name part must consist of alphanumeric"
                + " characters, '-', '_' or '.', and must start and end with an alphanumeric"
                + " character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for"
                + " validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            "metadata.labels: Invalid value: \"no spaces\": a valid label must be an empty"
                + " string or consist of alphanumeric characters, '-', '_' or '.', and must start"
                + " and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or"
                + " '12345', regex used for validation is"
                + " '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"),
        texts(
            ObjectMetaValidation.validateCreate(meta, true, Validation::nameIsDNSSubdomain, META)));
  }

  @Test
  void scopeDecidesTheNamespace() {
    assertEquals(
        List.of("metadata.namespace: Forbidden: not allowed on this type"),
        texts(
            ObjectMetaValidation.validateCreate(
                meta("node-1", "default"), false, Validation::nameIsDNSSubdomain, META)));
    assertEquals(
        "metadata.namespace: Invalid value: \"Default\"",
        texts(
                ObjectMetaValidation.validateCreate(
                    meta("a", "Default"), true, Validation::nameIsDNSSubdomain, META))
            .get(0)
            .substring(0, 44));
  }

  @Test
  void annotationsAreLimitedInTotal() {
    ObjectMeta meta = meta("a", "b");
    meta.setAnnotations(Map.of("big", "x".repeat(256 * 1024)));
    assertEquals(
        List.of("metadata.annotations: Too long: may not be more than 262144 bytes"),
        texts(
            ObjectMetaValidation.validateCreate(meta, true, Validation::nameIsDNSSubdomain, META)));
    meta.setAnnotations(Map.of("big", "x".repeat(256 * 1024 - 3)));
    assertEquals(
        List.of(),
        ObjectMetaValidation.validateCreate(meta, true, Validation::nameIsDNSSubdomain, META));
  }

  @Test
  void onlyOneControllerAndCompleteReferences() {
    OwnerReference first = owner("apps/v1", "ReplicaSet", "a", "1", true);
    OwnerReference second = owner("apps/v1", "ReplicaSet", "b", "2", true);
    OwnerReference empty = owner("", "", "", "", false);
    ObjectMeta meta = meta("p", "default");
    meta.setOwnerReferences(List.of(first, second, empty));
    List<String> errors =
        texts(
            ObjectMetaValidation.validateCreate(meta, true, Validation::nameIsDNSSubdomain, META));
    assertTrue(
        errors
            .get(0)
            .endsWith(
                "Only one reference can have Controller set to true. Found \"true\" in"
                    + " references for ReplicaSet/a and ReplicaSet/b"),
        errors.get(0));
    assertEquals(
        List.of(
            "metadata.ownerReferences[2].apiVersion: Required value: must not be empty",
            "metadata.ownerReferences[2].kind: Required value: must not be empty",
            "metadata.ownerReferences[2].name: Required value: must not be empty",
            "metadata.ownerReferences[2].uid: Required value: must not be empty"),
        errors.subList(1, 5));
  }

  private static OwnerReference owner(
      String apiVersion, String kind, String name, String uid, boolean controller) {
    OwnerReference reference = new OwnerReference();
    reference.setApiVersion(apiVersion);
    reference.setKind(kind);
    reference.setName(name);
    reference.setUid(uid);
    reference.setController(controller);
    return reference;
  }

  @Test
  void updateKeepsImmutableFields() {
    ObjectMeta old = meta("web", "default");
    old.setUid("u1");
    old.setResourceVersion("5");
    old.setGeneration(3);
    old.setCreationTimestamp(Instant.parse("2024-01-01T00:00:00Z"));
    ObjectMeta updated = meta("web", "other");
    updated.setUid("u2");
    updated.setGeneration(2);
    updated.setCreationTimestamp(Instant.parse("2024-01-01T00:00:00Z"));
    assertEquals(
        List.of(
            "metadata.resourceVersion: Invalid value: \"\": must be specified for an update",
            "metadata.generation: Invalid value: 2: must not be decremented",
            "metadata.namespace: Invalid value: \"other\": field is immutable",
            "metadata.uid: Invalid value: \"u2\": field is immutable"),
        texts(ObjectMetaValidation.validateUpdate(updated, old, META)));
  }

  @Test
  void noNewFinalizersWhileDeleting() {
    ObjectMeta old = meta("web", "default");
    old.setResourceVersion("5");
    old.setDeletionTimestamp(Instant.parse("2024-01-01T00:00:00Z"));
    old.setFinalizers(List.of("a.io/x"));
    ObjectMeta updated = meta("web", "default");
    updated.setResourceVersion("5");
    updated.setDeletionTimestamp(Instant.parse("2024-01-01T00:00:00Z"));
    updated.setFinalizers(List.of("a.io/x", "b.io/y"));
    assertEquals(
        List.of(
            "metadata.finalizers: Forbidden: no new finalizers can be added if the object is"
                + " being deleted, found new finalizers []string{\"b.io/y\"}"),
        texts(ObjectMetaValidation.validateUpdate(updated, old, META)));
  }
}
