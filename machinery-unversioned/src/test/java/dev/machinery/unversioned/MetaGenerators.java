package dev.machinery.unversioned;

import dev.machinery.core.runtime.ApiObject;
import dev.machinery.unversioned.meta.v1.APIResource;
import dev.machinery.unversioned.meta.v1.APIResourceList;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.ManagedFieldsEntry;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.meta.v1.PartialObjectMetadata;
import dev.machinery.unversioned.meta.v1.Preconditions;
import dev.machinery.unversioned.meta.v1.Scale;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.StatusCause;
import dev.machinery.unversioned.meta.v1.StatusDetails;
import dev.machinery.unversioned.meta.v1.Table;
import dev.machinery.unversioned.meta.v1.TableColumnDefinition;
import dev.machinery.unversioned.meta.v1.TableRow;
import dev.machinery.unversioned.meta.v1.TableRowCondition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Seeded generators of the shared types, for the round-trip properties. */
final class MetaGenerators {
  private MetaGenerators() {}

  static ApiObject any(Random random) {
    switch (random.nextInt(6)) {
      case 0:
        return status(random);
      case 1:
        return partial(random);
      case 2:
        return table(random);
      case 3:
        return resources(random);
      case 4:
        return scale(random);
      default:
        return deleteOptions(random);
    }
  }

  static String text(Random random) {
    String[] words = {"a", "web", "ü-名", "x y", "\"q\"", "", "line\nbreak", "0x1F", "true"};
    return words[random.nextInt(words.length)] + (random.nextBoolean() ? "" : random.nextInt(99));
  }

  /**
   * A value for a field Kubernetes omits when empty: null or non-empty, since on the wire an empty
   * string and an absent field are the same value.
   */
  static String maybe(Random random) {
    String text = text(random);
    return random.nextInt(3) == 0 || text.isEmpty() ? null : text;
  }

  static Map<String, String> labels(Random random) {
    if (random.nextInt(3) == 0) {
      return null;
    }
    Map<String, String> labels = new LinkedHashMap<>();
    for (int i = random.nextInt(4) + 1; i > 0; i--) {
      labels.put("k" + random.nextInt(50), text(random));
    }
    return labels;
  }

  static Instant time(Random random) {
    return random.nextInt(3) == 0 ? null : Instant.ofEpochSecond(random.nextInt(2_000_000_000));
  }

  static ObjectMeta meta(Random random) {
    ObjectMeta meta = new ObjectMeta();
    meta.setName(maybe(random));
    meta.setGenerateName(maybe(random));
    meta.setNamespace(maybe(random));
    meta.setUid(maybe(random));
    meta.setResourceVersion(maybe(random));
    meta.setGeneration(random.nextInt(3) == 0 ? 0 : random.nextLong());
    meta.setCreationTimestamp(time(random));
    meta.setDeletionTimestamp(time(random));
    meta.setDeletionGracePeriodSeconds(random.nextBoolean() ? null : (long) random.nextInt(60));
    meta.setLabels(labels(random));
    meta.setAnnotations(labels(random));
    if (random.nextBoolean()) {
      List<OwnerReference> owners = new ArrayList<>();
      for (int i = random.nextInt(2) + 1; i > 0; i--) {
        OwnerReference owner = new OwnerReference();
        owner.setApiVersion("apps/v1");
        owner.setKind("ReplicaSet");
        owner.setName(text(random));
        owner.setUid(text(random));
        owner.setController(random.nextBoolean() ? null : random.nextBoolean());
        owner.setBlockOwnerDeletion(random.nextBoolean() ? null : random.nextBoolean());
        owners.add(owner);
      }
      meta.setOwnerReferences(owners);
    }
    meta.setFinalizers(random.nextBoolean() ? null : List.of("example.dev/cleanup"));
    if (random.nextBoolean()) {
      ManagedFieldsEntry entry = new ManagedFieldsEntry();
      entry.setManager("kubectl");
      entry.setOperation(ManagedFieldsEntry.APPLY);
      entry.setFieldsType("FieldsV1");
      entry.setFieldsV1(Map.of("f:spec", Map.of("f:replicas", Map.of())));
      meta.setManagedFields(List.of(entry));
    }
    return meta;
  }

  static Status status(Random random) {
    Status status = new Status();
    status.setApiVersion("v1");
    status.setKind("Status");
    status.setStatus(random.nextBoolean() ? "Failure" : "Success");
    status.setMessage(maybe(random));
    status.setReason(random.nextBoolean() ? null : "NotFound");
    status.setCode(random.nextBoolean() ? 0 : 404);
    if (random.nextBoolean()) {
      ListMeta list = new ListMeta();
      list.setResourceVersion(maybe(random));
      list.setContinue(maybe(random));
      list.setRemainingItemCount(random.nextBoolean() ? null : (long) random.nextInt(9));
      status.setMetadata(list);
    }
    if (random.nextBoolean()) {
      StatusDetails details = new StatusDetails();
      details.setName(maybe(random));
      details.setKind(maybe(random));
      details.setRetryAfterSeconds(random.nextInt(3));
      if (random.nextBoolean()) {
        StatusCause cause = new StatusCause();
        cause.setReason("FieldValueInvalid");
        cause.setField("spec.replicas");
        cause.setMessage(maybe(random));
        details.setCauses(List.of(cause));
      }
      status.setDetails(details);
    }
    return status;
  }

  static PartialObjectMetadata partial(Random random) {
    PartialObjectMetadata partial = new PartialObjectMetadata();
    partial.setApiVersion("meta.k8s.io/v1");
    partial.setKind("PartialObjectMetadata");
    partial.setMetadata(meta(random));
    return partial;
  }

  static Table table(Random random) {
    Table table = new Table();
    table.setApiVersion("meta.k8s.io/v1");
    table.setKind("Table");
    TableColumnDefinition name = new TableColumnDefinition();
    name.setName("Name");
    name.setType("string");
    name.setFormat("name");
    name.setDescription("the name");
    name.setPriority(0);
    table.setColumnDefinitions(List.of(name));
    List<TableRow> rows = new ArrayList<>();
    for (int i = random.nextInt(3); i > 0; i--) {
      TableRow row = new TableRow();
      List<Object> cells = new ArrayList<>();
      cells.add(text(random));
      cells.add(random.nextInt(100)); // untyped integers decode as Integer where they fit
      cells.add(random.nextBoolean());
      cells.add(null);
      // Untyped doubles with a fraction: a whole one is written as an integer, as Go writes a
      // float64, and decodes as one.
      cells.add((8 * random.nextInt(125) + 1 + random.nextInt(7)) / 8.0);
      row.setCells(cells);
      if (random.nextBoolean()) {
        TableRowCondition condition = new TableRowCondition();
        condition.setType("Completed");
        condition.setStatus("True");
        row.setConditions(List.of(condition));
      }
      if (random.nextBoolean()) {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("kind", "PartialObjectMetadata");
        object.put("metadata", Map.of("name", text(random)));
        row.setObject(object);
      }
      rows.add(row);
    }
    table.setRows(rows);
    return table;
  }

  static APIResourceList resources(Random random) {
    APIResourceList list = new APIResourceList();
    list.setApiVersion("v1");
    list.setKind("APIResourceList");
    list.setGroupVersion("apps/v1");
    List<APIResource> resources = new ArrayList<>();
    for (int i = random.nextInt(3) + 1; i > 0; i--) {
      APIResource resource = new APIResource();
      resource.setName(random.nextBoolean() ? "deployments" : "deployments/scale");
      resource.setSingularName(random.nextBoolean() ? "" : "deployment");
      resource.setNamespaced(random.nextBoolean());
      resource.setGroup(random.nextBoolean() ? null : "autoscaling");
      resource.setVersion(random.nextBoolean() ? null : "v1");
      resource.setKind("Deployment");
      resource.setVerbs(random.nextBoolean() ? List.of() : List.of("get", "list"));
      resource.setShortNames(random.nextBoolean() ? null : List.of("deploy"));
      resource.setCategories(random.nextBoolean() ? null : List.of("all"));
      resource.setStorageVersionHash(maybe(random));
      resources.add(resource);
    }
    list.setResources(resources);
    return list;
  }

  static Scale scale(Random random) {
    Scale scale = new Scale();
    scale.setApiVersion("autoscaling/v1");
    scale.setKind("Scale");
    scale.setMetadata(meta(random));
    scale.getSpec().setReplicas(random.nextInt(5));
    scale.getStatus().setReplicas(random.nextInt(5));
    scale.getStatus().setSelector(maybe(random));
    return scale;
  }

  static DeleteOptions deleteOptions(Random random) {
    DeleteOptions options = new DeleteOptions();
    options.setApiVersion("meta.k8s.io/v1");
    options.setKind("DeleteOptions");
    options.setGracePeriodSeconds(random.nextBoolean() ? null : (long) random.nextInt(30));
    if (random.nextBoolean()) {
      Preconditions preconditions = new Preconditions();
      preconditions.setUid(maybe(random));
      preconditions.setResourceVersion(maybe(random));
      options.setPreconditions(preconditions);
    }
    options.setPropagationPolicy(random.nextBoolean() ? null : "Foreground");
    options.setDryRun(random.nextBoolean() ? null : List.of("All"));
    options.setOrphanDependents(random.nextBoolean() ? null : false);
    return options;
  }
}
