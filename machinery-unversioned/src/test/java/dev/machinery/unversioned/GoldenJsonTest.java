package dev.machinery.unversioned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.unversioned.meta.v1.APIResource;
import dev.machinery.unversioned.meta.v1.APIResourceList;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.GetOptions;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.PartialObjectMetadata;
import dev.machinery.unversioned.meta.v1.PartialObjectMetadataList;
import dev.machinery.unversioned.meta.v1.Rfc3339;
import dev.machinery.unversioned.meta.v1.Scale;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.StatusReason;
import dev.machinery.unversioned.meta.v1.Table;
import dev.machinery.unversioned.testapi.TestSchemes;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Each shared type encodes as Kubernetes writes it: field names, field order, and which empty
 * fields are left out, checked against golden JSON that decodes and re-encodes unchanged.
 */
class GoldenJsonTest {
  private static final Codec JSON = CodecFactory.create(TestSchemes.SCHEME).json();

  private static void roundTrips(String golden, Class<? extends ApiObject> type) {
    ApiObject decoded = JSON.decode(golden, type).object();
    assertEquals(golden, JSON.encodeToString(decoded));
  }

  @Test
  void status() {
    roundTrips(
        "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"metadata\":{},\"status\":\"Failure\","
            + "\"message\":\"pods \\\"web\\\" not found\",\"reason\":\"NotFound\","
            + "\"details\":{\"name\":\"web\",\"kind\":\"pods\"},\"code\":404}",
        Status.class);
    roundTrips(
        "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"metadata\":{},\"status\":\"Failure\","
            + "\"message\":\"Deployment.apps \\\"web\\\" is invalid\",\"reason\":\"Invalid\","
            + "\"details\":{\"name\":\"web\",\"group\":\"apps\",\"kind\":\"Deployment\","
            + "\"causes\":[{\"reason\":\"FieldValueInvalid\",\"message\":\"Invalid value: -1\","
            + "\"field\":\"spec.replicas\"}],\"retryAfterSeconds\":2},\"code\":422}",
        Status.class);
    Status empty = new Status();
    assertEquals(
        "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"metadata\":{}}", JSON.encodeToString(empty));
  }

  @Test
  void aStatusKeepsTheGroupVersionItNamesAndIsV1Otherwise() {
    Status status =
        JSON.decode(
                "{\"apiVersion\":\"apps/v1\",\"kind\":\"Status\",\"status\":\"Success\"}",
                Status.class)
            .object();
    assertEquals("apps/v1", status.getApiVersion());
    assertEquals(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Status\",\"metadata\":{},\"status\":\"Success\"}",
        JSON.encodeToString(status));
    assertEquals(
        "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"metadata\":{},\"status\":\"Success\"}",
        JSON.encodeToString(statusWithoutVersion()));
  }

  private static Status statusWithoutVersion() {
    Status status = new Status();
    status.setStatus("Success");
    return status;
  }

  @Test
  void statusReasonsMapToTheirHttpCodes() {
    assertEquals(404, StatusReason.NOT_FOUND.code());
    assertEquals(422, StatusReason.INVALID.code());
    assertEquals(409, StatusReason.CONFLICT.code());
    assertEquals(504, StatusReason.TIMEOUT.code());
    assertEquals(406, StatusReason.NOT_ACCEPTABLE.code());
    assertEquals(
        Optional.of(StatusReason.TOO_MANY_REQUESTS), StatusReason.fromWireName("TooManyRequests"));
    assertEquals(Optional.of(StatusReason.UNKNOWN), StatusReason.fromWireName(""));
    assertEquals(Optional.empty(), StatusReason.fromWireName("SomethingNew"));
  }

  @Test
  void partialObjectMetadataWritesANullCreationTimestampAsKubernetesDoes() {
    roundTrips(
        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"PartialObjectMetadata\","
            + "\"metadata\":{\"name\":\"web\",\"namespace\":\"prod\","
            + "\"uid\":\"5f1c\",\"resourceVersion\":\"42\",\"generation\":2,"
            + "\"creationTimestamp\":\"2024-05-01T12:00:00Z\","
            + "\"deletionTimestamp\":\"2024-05-02T00:00:00Z\",\"deletionGracePeriodSeconds\":30,"
            + "\"labels\":{\"app\":\"web\"},\"annotations\":{\"note\":\"\"},"
            + "\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\","
            + "\"name\":\"web-1\",\"uid\":\"9a\",\"controller\":true,\"blockOwnerDeletion\":true}],"
            + "\"finalizers\":[\"example.dev/x\"],\"managedFields\":[{\"manager\":\"kubectl\","
            + "\"operation\":\"Apply\",\"apiVersion\":\"apps/v1\",\"time\":\"2024-05-01T12:00:00Z\","
            + "\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:metadata\":{\"f:labels\":{}}}}]}}",
        PartialObjectMetadata.class);
    assertEquals(
        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"PartialObjectMetadata\","
            + "\"metadata\":{\"creationTimestamp\":null}}",
        JSON.encodeToString(new PartialObjectMetadata()));
    roundTrips(
        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"PartialObjectMetadataList\","
            + "\"metadata\":{\"resourceVersion\":\"7\",\"continue\":\"abc\","
            + "\"remainingItemCount\":3},\"items\":[{\"metadata\":{\"name\":\"a\","
            + "\"creationTimestamp\":null}}]}",
        PartialObjectMetadataList.class);
  }

  @Test
  void timesAreRfc3339InUtcToTheSecond() {
    PartialObjectMetadata partial =
        JSON.decode(
                "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"PartialObjectMetadata\","
                    + "\"metadata\":{\"creationTimestamp\":\"2024-05-01T14:00:00.5+02:00\"}}",
                PartialObjectMetadata.class)
            .object();
    assertEquals(
        Instant.parse("2024-05-01T12:00:00.5Z"), partial.getMetadata().getCreationTimestamp());
    assertEquals(
        "2024-05-01T12:00:00Z", Rfc3339.format(partial.getMetadata().getCreationTimestamp()));
    DecodeException error =
        assertThrows(
            DecodeException.class,
            () ->
                JSON.decode(
                    "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"PartialObjectMetadata\","
                        + "\"metadata\":{\"creationTimestamp\":\"yesterday\"}}"));
    assertEquals("metadata.creationTimestamp", error.fieldPath());
  }

  @Test
  void table() {
    roundTrips(
        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"Table\",\"metadata\":{\"resourceVersion\":\"5\"},"
            + "\"columnDefinitions\":[{\"name\":\"Name\",\"type\":\"string\",\"format\":\"name\","
            + "\"description\":\"Name must be unique\",\"priority\":0},{\"name\":\"Age\","
            + "\"type\":\"string\",\"format\":\"\",\"description\":\"\",\"priority\":1}],"
            + "\"rows\":[{\"cells\":[\"web\",\"5d\",3,true,null,0.5],\"conditions\":[{\"type\":"
            + "\"Completed\",\"status\":\"True\"}],\"object\":{\"kind\":\"PartialObjectMetadata\","
            + "\"apiVersion\":\"meta.k8s.io/v1\",\"metadata\":{\"name\":\"web\"}}}]}",
        Table.class);
    assertEquals(
        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"Table\",\"metadata\":{},"
            + "\"columnDefinitions\":null,\"rows\":null}",
        JSON.encodeToString(emptyTable()));
  }

  private static Table emptyTable() {
    Table table = new Table();
    table.setApiVersion("meta.k8s.io/v1");
    return table;
  }

  @Test
  void scale() {
    roundTrips(
        "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":\"web\","
            + "\"namespace\":\"prod\",\"creationTimestamp\":null},\"spec\":{\"replicas\":3},"
            + "\"status\":{\"replicas\":2,\"selector\":\"app=web\"}}",
        Scale.class);
    assertEquals(
        "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":"
            + "{\"creationTimestamp\":null},\"spec\":{},\"status\":{\"replicas\":0}}",
        JSON.encodeToString(autoscalingScale()));
  }

  private static Scale autoscalingScale() {
    Scale scale = new Scale();
    scale.setApiVersion("autoscaling/v1");
    scale.setKind("Scale");
    return scale;
  }

  @Test
  void options() {
    roundTrips(
        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"ListOptions\","
            + "\"labelSelector\":\"app=web,tier!=db\",\"fieldSelector\":\"metadata.name=web\","
            + "\"watch\":true,\"allowWatchBookmarks\":true,\"resourceVersion\":\"10\","
            + "\"resourceVersionMatch\":\"NotOlderThan\",\"timeoutSeconds\":30,\"limit\":500,"
            + "\"continue\":\"tok\",\"sendInitialEvents\":false}",
        ListOptions.class);
    roundTrips(
        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"GetOptions\",\"resourceVersion\":\"0\"}",
        GetOptions.class);
    roundTrips(
        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"DeleteOptions\",\"gracePeriodSeconds\":0,"
            + "\"preconditions\":{\"uid\":\"u\",\"resourceVersion\":\"3\"},"
            + "\"orphanDependents\":false,\"propagationPolicy\":\"Foreground\","
            + "\"dryRun\":[\"All\"]}",
        DeleteOptions.class);
    assertEquals(
        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"ListOptions\"}",
        JSON.encodeToString(
            JSON.decode(
                    "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"ListOptions\",\"watch\":false,"
                        + "\"limit\":0,\"labelSelector\":\"\"}",
                    ListOptions.class)
                .object()));
  }

  @Test
  void apiResourceKeepsTheFieldsKubernetesAlwaysWrites() {
    APIResource resource = new APIResource();
    resource.setName("pods/eviction");
    resource.setSingularName("");
    resource.setKind("Eviction");
    resource.setGroup("policy");
    resource.setVersion("v1");
    resource.setVerbs(List.of("create"));
    APIResourceList list = new APIResourceList();
    list.setGroupVersion("v1");
    list.setResources(List.of(resource));
    assertEquals(
        "{\"apiVersion\":\"v1\",\"kind\":\"APIResourceList\",\"groupVersion\":\"v1\","
            + "\"resources\":[{\"name\":\"pods/eviction\",\"singularName\":\"\","
            + "\"namespaced\":false,\"group\":\"policy\",\"version\":\"v1\",\"kind\":\"Eviction\","
            + "\"verbs\":[\"create\"]}]}",
        JSON.encodeToString(list));
  }
}
