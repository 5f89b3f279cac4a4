package dev.machinery.restmapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The cases of Kubernetes' own tests of {@code DefaultRESTMapper} (k8s.io/apimachinery, {@code
 * pkg/api/meta/restmapper_test.go}), carried over as facts and run against this library's mapper.
 * Group versions are written {@code group/version}; a partial resource {@code group/version/name}
 * with empty parts where Go leaves them out.
 */
class GoDefaultRESTMapperTablesTest {
  private static GroupVersion gv(String text) {
    int slash = text.indexOf('/');
    return GroupVersion.of(text.substring(0, slash), text.substring(slash + 1));
  }

  private static GroupVersionKind gvk(String text) {
    String[] parts = text.split("/", -1);
    return GroupVersionKind.of(parts[0], parts[1], parts[2]);
  }

  private static GroupVersionResource gvr(String text) {
    String[] parts = text.split("/", -1);
    return GroupVersionResource.of(parts[0], parts[1], parts[2]);
  }

  private static List<GroupVersion> gvs(String list) {
    List<GroupVersion> out = new ArrayList<>();
    for (String item : list.split(" ")) {
      out.add(gv(item));
    }
    return out;
  }

  private static DefaultRESTMapper mapper(String preferred, String kinds) {
    DefaultRESTMapper.Builder builder =
        DefaultRESTMapper.builder(gvs(preferred).toArray(new GroupVersion[0]));
    for (String kind : kinds.split(" ")) {
      builder.add(gvk(kind), Scope.NAMESPACE);
    }
    return builder.build();
  }

  // TestRESTMapperVersionAndKindForResource
  @ParameterizedTest
  @CsvSource({"internalobjec,", "internalObjec,", "internalobject,ok", "internalobjects,ok"})
  void versionAndKindForResource(String resource, String ok) {
    DefaultRESTMapper mapper = mapper("test.group/test", "test.group/test/InternalObject");
    GroupVersionResource query = GroupVersionResource.of("", "", resource.toLowerCase());
    if (ok == null) {
      assertThrows(
          NoResourceMatchException.class,
          () -> mapper.kindFor(GroupVersionResource.of("", "", resource.toLowerCase())));
      return;
    }
    assertEquals(gvk("test.group/test/InternalObject"), mapper.kindFor(query));
  }

  // TestRESTMapperGroupForResource: the resource asked for is lower-cased.
  @ParameterizedTest
  @CsvSource({
    "myObject,testapi/test/MyObject,true",
    "myobject,testapi2/test/MyObject,true",
    "myObje,testapi/test/MyObject,false",
    "myobje,testapi/test/MyObject,false"
  })
  void groupForResource(String resource, String kind, boolean found) {
    DefaultRESTMapper mapper =
        DefaultRESTMapper.builder(gvk(kind).groupVersion()).add(gvk(kind), Scope.NAMESPACE).build();
    GroupVersionResource query = partial("", "", resource);
    if (!found) {
      assertThrows(NoResourceMatchException.class, () -> mapper.kindFor(query));
      return;
    }
    assertEquals(gvk(kind), mapper.kindFor(query));
  }

  /** A partial resource as a caller types it: any case (Go lower-cases it when matching). */
  private static GroupVersionResource partial(String group, String version, String resource) {
    return GroupVersionResource.of(group, version, resource.toLowerCase());
  }

  // TestRESTMapperKindsFor and TestRESTMapperResourcesFor share their cases.
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "groups, with group exact|first-group-1/first-version first-group/first-version"
            + "|first-group-1/first-version/my-kind first-group/first-version/my-kind"
            + "|first-group//my-kind|first-group/first-version|false",
        "groups, with group prefix|second-group/first-version first-group/first-version"
            + "|first-group/first-version/my-kind second-group/first-version/my-kind"
            + "|first//my-kind|first-group/first-version|false",
        "groups, with ambiguous group prefix|first-group-1/first-version"
            + " first-group/first-version"
            + "|first-group-1/first-version/my-kind first-group/first-version/my-kind"
            + "|first//my-kind|first-group-1/first-version first-group/first-version|true",
        "ambiguous groups, with preference order|second-group/first-version"
            + " first-group/first-version"
            + "|first-group/first-version/my-kind first-group/first-version/your-kind"
            + " second-group/first-version/my-kind second-group/first-version/your-kind"
            + "|//my-kind|second-group/first-version first-group/first-version|true",
        "ambiguous groups, with explicit group match|second-group/first-version"
            + " first-group/first-version"
            + "|first-group/first-version/my-kind first-group/first-version/your-kind"
            + " second-group/first-version/my-kind second-group/first-version/your-kind"
            + "|first-group//my-kind|first-group/first-version|false",
        "ambiguous groups, with ambiguous version match|first-group/first-version"
            + " second-group/first-version"
            + "|first-group/first-version/my-kind first-group/first-version/your-kind"
            + " second-group/first-version/my-kind second-group/first-version/your-kind"
            + "|/first-version/my-kind|first-group/first-version second-group/first-version|true",
      })
  void kindsAndResourcesFor(
      String name,
      String preferred,
      String kinds,
      String singularQuery,
      String expectedGroupVersions,
      boolean ambiguous) {
    DefaultRESTMapper mapper = mapper(preferred, kinds);
    List<GroupVersionKind> expectedKinds = new ArrayList<>();
    List<GroupVersionResource> expectedResources = new ArrayList<>();
    for (GroupVersion version : gvs(expectedGroupVersions)) {
      expectedKinds.add(version.withKind("my-kind"));
      expectedResources.add(version.withResource("my-kinds"));
    }
    GroupVersionResource singular = gvr(singularQuery);
    GroupVersionResource plural =
        GroupVersionResource.of(singular.group(), singular.version(), "my-kinds");
    // Go asks KindsFor with the singular, ResourcesFor with both.
    assertEquals(expectedKinds, mapper.kindsFor(singular), name);
    for (GroupVersionResource query : List.of(plural, singular)) {
      assertEquals(expectedResources, mapper.resourcesFor(query), name);
    }
    if (ambiguous) {
      assertTrue(
          assertThrows(AmbiguousResourceException.class, () -> mapper.kindFor(singular))
              .getMessage()
              .contains(" matches multiple kinds "));
      assertTrue(
          assertThrows(AmbiguousResourceException.class, () -> mapper.resourceFor(plural))
              .getMessage()
              .contains(" matches multiple resources "));
    } else {
      assertEquals(expectedKinds.get(0), mapper.kindFor(singular));
      assertEquals(expectedResources.get(0), mapper.resourceFor(plural));
    }
  }

  // TestKindToResource, plus the endpoints suffix and an empty kind.
  @ParameterizedTest
  @CsvSource({
    "Pod,pods,pod",
    "ReplicationController,replicationcontrollers,replicationcontroller",
    "ImageRepository,imagerepositories,imagerepository",
    "miss,misses,miss",
    "lowercase,lowercases,lowercase",
    "Endpoints,endpoints,endpoints",
    "FooEndpoints,fooendpoints,fooendpoints",
  })
  void kindToResource(String kind, String plural, String singular) {
    List<GroupVersionResource> guessed =
        DefaultRESTMapper.guessResources(GroupVersionKind.of("", "", kind));
    assertEquals(plural, guessed.get(0).resource());
    assertEquals(singular, guessed.get(1).resource());
  }

  // TestRESTMapperResourceSingularizer (including the row Go marks as its actual behaviour)
  @ParameterizedTest
  @CsvSource({
    "Pod,pods,pod",
    "ReplicationController,replicationcontrollers,replicationcontroller",
    "ImageRepository,imagerepositories,imagerepository",
    "Status,statuses,status",
    "lowercase,lowercases,lowercase",
    "lowercases,lowercaseses,lowercases",
  })
  void resourceSingularizer(String kind, String plural, String singular) {
    GroupVersion version = GroupVersion.of("tgroup", "test");
    DefaultRESTMapper mapper =
        DefaultRESTMapper.builder(version).add(version.withKind(kind), Scope.NAMESPACE).build();
    assertEquals(singular, mapper.resourceSingularizer(plural));
  }

  // TestRESTMapperRESTMapping: InternalObject registered in tgroup/test.
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        "Unknown|-|-|-",
        "InternalObject|-|-|-",
        "Unknown|tgroup/test|-|-",
        "InternalObject|tgroup/test|test|tgroup/test/internalobjects",
        "InternalObject|tgroup/test|-|tgroup/test/internalobjects",
      })
  void restMapping(String kind, String defaults, String versions, String resource) {
    GroupVersion version = GroupVersion.of("tgroup", "test");
    DefaultRESTMapper mapper =
        (defaults == null ? DefaultRESTMapper.builder() : DefaultRESTMapper.builder(gv(defaults)))
            .add(version.withKind("InternalObject"), Scope.NAMESPACE)
            .build();
    String[] asked = versions == null ? new String[0] : versions.split(" ");
    GroupKind groupKind = GroupKind.of("tgroup", kind);
    if (resource == null) {
      assertThrows(NoMatchException.class, () -> mapper.restMapping(groupKind, asked));
      return;
    }
    RESTMapping mapping = mapper.restMapping(groupKind, asked);
    assertEquals(gvr(resource), mapping.resource());
    assertEquals(version, mapping.groupVersionKind().groupVersion());
  }

  // TestRESTMapperRESTMappingSelectsVersion and TestRESTMapperReportsErrorOnBadVersion
  @Test
  void restMappingSelectsVersion() {
    GroupVersion v1 = GroupVersion.of("tgroup", "test1");
    GroupVersion v2 = GroupVersion.of("tgroup", "test2");
    DefaultRESTMapper mapper =
        DefaultRESTMapper.builder(v1, v2)
            .add(v1.withKind("InternalObject"), Scope.NAMESPACE)
            .add(v2.withKind("OtherObject"), Scope.NAMESPACE)
            .build();
    GroupKind internal = GroupKind.of("tgroup", "InternalObject");
    GroupKind other = GroupKind.of("tgroup", "OtherObject");
    assertEquals(v2.withResource("otherobjects"), mapper.restMapping(other).resource());
    assertEquals(v1.withResource("internalobjects"), mapper.restMapping(internal).resource());
    assertThrows(NoKindMatchException.class, () -> mapper.restMapping(internal, "test2"));
    assertThrows(NoKindMatchException.class, () -> mapper.restMapping(other, "test1"));
    assertThrows(NoKindMatchException.class, () -> mapper.restMapping(other, "test3"));
    assertThrows(NoKindMatchException.class, () -> mapper.restMapping(other, "test3", "test1"));
    assertEquals(
        v2.withResource("otherobjects"), mapper.restMapping(other, "test3", "test2").resource());
    assertEquals(
        "no matches for kind \"InternalObject\" in version \"tgroup/test3\"",
        assertThrows(NoKindMatchException.class, () -> mapper.restMapping(internal, "test3"))
            .getMessage());
  }

  // TestRESTMapperRESTMappings
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        "Unknown|-|-|-|-",
        "InternalObject|-|-|-|-",
        "Unknown|tgroup/v1|-|-|-",
        "InternalObject|tgroup/v1|v2|-|-",
        "InternalObject|tgroup/v1|v2|tgroup/v2/InternalObject|tgroup/v2",
        "InternalObject|tgroup/v1|v3 v2|tgroup/v2/InternalObject|tgroup/v2",
        "InternalObject|tgroup/v1 tgroup/v2|-"
            + "|tgroup/v1/InternalObject tgroup/v2/InternalObject|tgroup/v1 tgroup/v2",
      })
  void restMappings(
      String kind, String defaults, String versions, String registered, String expected) {
    DefaultRESTMapper.Builder builder =
        defaults == null
            ? DefaultRESTMapper.builder()
            : DefaultRESTMapper.builder(gvs(defaults).toArray(new GroupVersion[0]));
    if (registered != null) {
      for (String one : registered.split(" ")) {
        builder.add(gvk(one), Scope.NAMESPACE);
      }
    }
    DefaultRESTMapper mapper = builder.build();
    String[] asked = versions == null ? new String[0] : versions.split(" ");
    GroupKind groupKind = GroupKind.of("tgroup", kind);
    if (expected == null) {
      assertThrows(NoMatchException.class, () -> mapper.restMappings(groupKind, asked));
      return;
    }
    List<GroupVersionResource> resources = new ArrayList<>();
    for (RESTMapping mapping : mapper.restMappings(groupKind, asked)) {
      resources.add(mapping.resource());
    }
    List<GroupVersionResource> wanted = new ArrayList<>();
    for (GroupVersion version : gvs(expected)) {
      wanted.add(version.withResource("internalobjects"));
    }
    assertEquals(wanted, resources);
  }

  @Test
  void anInternalVersionMeansAnyVersionAndRestMappingWithoutDefaultsFailsAsGoDoes() {
    GroupVersion v1 = GroupVersion.of("apps", "v1");
    DefaultRESTMapper mapper =
        DefaultRESTMapper.builder(v1).add(v1.withKind("Deployment"), Scope.NAMESPACE).build();
    assertEquals(
        v1.withKind("Deployment"),
        mapper.kindFor(GroupVersionResource.of("apps", "__internal", "deployments")));
    DefaultRESTMapper noDefaults =
        DefaultRESTMapper.builder().add(v1.withKind("Deployment"), Scope.NAMESPACE).build();
    assertEquals(
        "no matches for kind \"Deployment\" in group \"apps\"",
        assertThrows(
                NoKindMatchException.class,
                () -> noDefaults.restMapping(GroupKind.of("apps", "Deployment")))
            .getMessage());
    assertEquals(
        v1.withResource("deployments"),
        noDefaults.restMapping(GroupKind.of("apps", "Deployment"), "v1").resource());
  }
}
