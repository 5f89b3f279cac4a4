package dev.machinery.restmapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cases of Kubernetes' tests of {@code MultiRESTMapper} and {@code PriorityRESTMapper}
 * (k8s.io/apimachinery, {@code pkg/api/meta/multirestmapper_test.go} and {@code priority_test.go}),
 * against mappers written here as a user would write one: the composed mappers ask them through the
 * {@link RESTMapper} interface only. Go's rows that return an answer and an error at once have no
 * Java form (a method returns or throws) and are left out.
 */
class GoMultiAndPriorityTablesTest {
  /** A mapper that answers the same whatever it is asked, or fails. */
  private static final class Fixed implements RESTMapper {
    List<GroupVersionResource> resources = List.of();
    List<GroupVersionKind> kinds = List.of();
    List<RESTMapping> mappings = List.of();
    RuntimeException failure;

    private <T> T answer(T value) {
      if (failure != null) {
        throw failure;
      }
      return value;
    }

    @Override
    public GroupVersionKind kindFor(GroupVersionResource resource) {
      return answer(kinds.get(0));
    }

    @Override
    public List<GroupVersionKind> kindsFor(GroupVersionResource resource) {
      return answer(kinds);
    }

    @Override
    public GroupVersionResource resourceFor(GroupVersionResource resource) {
      return answer(resources.get(0));
    }

    @Override
    public List<GroupVersionResource> resourcesFor(GroupVersionResource resource) {
      return answer(resources);
    }

    @Override
    public RESTMapping restMapping(GroupKind kind, String... versions) {
      return answer(mappings.get(0));
    }

    @Override
    public List<RESTMapping> restMappings(GroupKind kind, String... versions) {
      return answer(mappings);
    }

    @Override
    public String resourceSingularizer(String resource) {
      return answer("");
    }
  }

  private static final GroupVersionResource FOO = GroupVersionResource.of("", "", "foo");

  private static Fixed failing(RuntimeException e) {
    Fixed fixed = new Fixed();
    fixed.failure = e;
    return fixed;
  }

  private static Fixed resources(GroupVersionResource... found) {
    Fixed fixed = new Fixed();
    fixed.resources = List.of(found);
    return fixed;
  }

  private static Fixed kinds(GroupVersionKind... found) {
    Fixed fixed = new Fixed();
    fixed.kinds = List.of(found);
    return fixed;
  }

  private static Fixed mappings(RESTMapping... found) {
    Fixed fixed = new Fixed();
    fixed.mappings = List.of(found);
    return fixed;
  }

  private static GroupVersionResource r(String group, String version, String name) {
    return GroupVersionResource.of(group, version, name);
  }

  private static GroupVersionKind k(String group, String version, String name) {
    return GroupVersionKind.of(group, version, name);
  }

  private static RESTMapping mapping(String group, String version) {
    return new RESTMapping(r(group, version, "foos"), k(group, version, "Foo"), Scope.NAMESPACE);
  }

  // TestMultiRESTMapperResourceFor, ResourcesFor, KindsFor, KindFor
  @Test
  void multiEmptyAndIgnoredMissesAreANoMatchForTheQuery() {
    NoResourceMatchException miss =
        new NoResourceMatchException(GroupVersionResource.of("", "", "ignore-this"));
    for (MultiRESTMapper mapper :
        List.of(MultiRESTMapper.of(), MultiRESTMapper.of(failing(miss)))) {
      for (org.junit.jupiter.api.function.Executable lookup :
          List.<org.junit.jupiter.api.function.Executable>of(
              () -> mapper.resourceFor(FOO),
              () -> mapper.resourcesFor(FOO),
              () -> mapper.kindsFor(FOO),
              () -> mapper.kindFor(FOO))) {
        assertEquals(FOO, assertThrows(NoResourceMatchException.class, lookup).partialResource());
      }
    }
  }

  @Test
  void multiAcceptsTheFirstFailure() {
    IllegalStateException fail = new IllegalStateException("fail on this");
    MultiRESTMapper resources = MultiRESTMapper.of(failing(fail), resources(r("", "", "unused")));
    assertSame(fail, assertThrows(IllegalStateException.class, () -> resources.resourceFor(FOO)));
    assertSame(fail, assertThrows(IllegalStateException.class, () -> resources.resourcesFor(FOO)));
    MultiRESTMapper kinds = MultiRESTMapper.of(failing(fail), kinds(k("", "", "unused")));
    assertSame(fail, assertThrows(IllegalStateException.class, () -> kinds.kindsFor(FOO)));
    assertSame(fail, assertThrows(IllegalStateException.class, () -> kinds.kindFor(FOO)));
    MultiRESTMapper both = MultiRESTMapper.of(failing(fail), mappings(mapping("", "v1")));
    assertSame(
        fail,
        assertThrows(
            IllegalStateException.class,
            () -> both.restMappings(GroupKind.of("", "Foo"), "v1beta")));
  }

  @Test
  void multiUnitesAndDropsRepeats() {
    MultiRESTMapper resources =
        MultiRESTMapper.of(
            resources(r("", "", "dupe"), r("", "", "first")),
            resources(r("", "", "dupe"), r("", "", "second")));
    assertEquals(
        List.of(r("", "", "dupe"), r("", "", "first"), r("", "", "second")),
        resources.resourcesFor(FOO));
    MultiRESTMapper kinds =
        MultiRESTMapper.of(
            kinds(k("", "", "dupe"), k("", "", "first")),
            kinds(k("", "", "dupe"), k("", "", "second")));
    assertEquals(
        List.of(k("", "", "dupe"), k("", "", "first"), k("", "", "second")), kinds.kindsFor(FOO));
    NoResourceMatchException miss = new NoResourceMatchException(r("", "", "ignore-this"));
    assertEquals(
        List.of(r("", "", "first"), r("", "", "second")),
        MultiRESTMapper.of(failing(miss), resources(r("", "", "first"), r("", "", "second")))
            .resourcesFor(FOO));
  }

  // TestMultiRESTMapperRESTMappings
  @Test
  void multiRestMappingsMissesAndBoth() {
    GroupKind foo = GroupKind.of("", "Foo");
    assertEquals(
        "no matches for kind \"Foo\" in group \"\"",
        assertThrows(NoKindMatchException.class, () -> MultiRESTMapper.of().restMappings(foo))
            .getMessage());
    assertEquals(
        "no matches for kind \"Foo\" in version \"v1beta\"",
        assertThrows(
                NoKindMatchException.class, () -> MultiRESTMapper.of().restMappings(foo, "v1beta"))
            .getMessage());
    assertEquals(
        "no matches for kind \"Foo\" in versions [\"v1beta\" \"v2\"]",
        assertThrows(
                NoKindMatchException.class,
                () ->
                    MultiRESTMapper.of(failing(new NoKindMatchException(foo, List.of("v1"))))
                        .restMappings(foo, "v1beta", "v2"))
            .getMessage());
    RESTMapping one = mapping("", "v1");
    RESTMapping two = mapping("", "v2");
    assertEquals(
        List.of(one, two),
        MultiRESTMapper.of(mappings(one), mappings(two)).restMappings(foo, "v1beta"));
  }

  // TestPriorityRESTMapperResourceForErrorHandling (the rows without an error beside a result)
  @Test
  void priorityResourceFor() {
    GroupVersionResource first = r("one", "a", "first");
    GroupVersionResource second = r("two", "b", "second");
    IllegalStateException fail = new IllegalStateException("delegateError");
    assertSame(
        fail,
        assertThrows(
            IllegalStateException.class,
            () -> new PriorityRESTMapper(failing(fail), List.of(), List.of()).resourceFor(FOO)));
    assertEquals(
        r("", "", "single-hit"),
        new PriorityRESTMapper(resources(r("", "", "single-hit")), List.of(), List.of())
            .resourceFor(FOO));
    assertTrue(
        assertThrows(
                AmbiguousResourceException.class,
                () ->
                    new PriorityRESTMapper(resources(first, second), List.of(), List.of())
                        .resourceFor(FOO))
            .getMessage()
            .contains("matches multiple resources"));
    PriorityRESTMapper.Pattern groupOne = new PriorityRESTMapper.Pattern("one", "*", "*");
    assertEquals(
        first,
        new PriorityRESTMapper(resources(first, second), List.of(groupOne), List.of())
            .resourceFor(FOO));
    assertEquals(
        first,
        new PriorityRESTMapper(
                resources(first, second),
                List.of(new PriorityRESTMapper.Pattern("fail", "*", "*"), groupOne),
                List.of())
            .resourceFor(FOO));
    assertEquals(
        first,
        new PriorityRESTMapper(
                resources(first, second, r("one", "c", "third")),
                List.of(groupOne, new PriorityRESTMapper.Pattern("*", "a", "*")),
                List.of())
            .resourceFor(FOO));
    assertEquals(
        r("one", "a", "second"),
        new PriorityRESTMapper(
                resources(first, r("one", "a", "second")),
                List.of(new PriorityRESTMapper.Pattern("*", "*", "second")),
                List.of())
            .resourceFor(FOO));
  }

  // TestPriorityRESTMapperKindForErrorHandling (the rows without an error beside a result)
  @Test
  void priorityKindFor() {
    GroupVersionKind first = k("one", "a", "first");
    GroupVersionKind second = k("two", "b", "second");
    assertEquals(
        k("", "", "single-hit"),
        new PriorityRESTMapper(kinds(k("", "", "single-hit")), List.of(), List.of()).kindFor(FOO));
    assertTrue(
        assertThrows(
                AmbiguousResourceException.class,
                () ->
                    new PriorityRESTMapper(kinds(first, second), List.of(), List.of()).kindFor(FOO))
            .getMessage()
            .contains("matches multiple kinds"));
    PriorityRESTMapper.Pattern groupOne = new PriorityRESTMapper.Pattern("one", "*", "*");
    assertEquals(
        first,
        new PriorityRESTMapper(
                kinds(first, second, k("one", "c", "third")),
                List.of(),
                List.of(groupOne, new PriorityRESTMapper.Pattern("*", "a", "*")))
            .kindFor(FOO));
    assertEquals(
        first,
        new PriorityRESTMapper(
                kinds(first, second),
                List.of(),
                List.of(new PriorityRESTMapper.Pattern("fail", "*", "*"), groupOne))
            .kindFor(FOO));
    assertEquals(
        k("one", "a", "second"),
        new PriorityRESTMapper(
                kinds(first, k("one", "a", "second")),
                List.of(),
                List.of(new PriorityRESTMapper.Pattern("*", "*", "second")))
            .kindFor(FOO));
  }

  // TestPriorityRESTMapperRESTMapping and ...HonorsUserVersion
  @Test
  void priorityRestMapping() {
    RESTMapping v1alpha1 = mapping("", "v1alpha1");
    RESTMapping v1 = mapping("", "v1");
    RESTMapping other = mapping("other", "v1");
    MultiRESTMapper all = MultiRESTMapper.of(mappings(v1alpha1), mappings(v1), mappings(other));
    GroupKind foo = GroupKind.of("", "Foo");
    assertEquals(
        "no matches for kind \"Foo\" in group \"\"",
        assertThrows(
                NoKindMatchException.class,
                () ->
                    new PriorityRESTMapper(MultiRESTMapper.of(), List.of(), List.of())
                        .restMapping(foo))
            .getMessage());
    assertSame(
        v1alpha1,
        new PriorityRESTMapper(mappings(v1alpha1), List.of(), List.of()).restMapping(foo));
    assertSame(
        v1,
        new PriorityRESTMapper(
                all,
                List.of(),
                List.of(
                    new PriorityRESTMapper.Pattern("", "v1", "*"),
                    new PriorityRESTMapper.Pattern("", "v1alpha1", "*")))
            .restMapping(foo));
    assertSame(
        other,
        new PriorityRESTMapper(
                all,
                List.of(),
                List.of(
                    new PriorityRESTMapper.Pattern("*", "v1", "*"),
                    new PriorityRESTMapper.Pattern("other", "*", "*")))
            .restMapping(foo));
    RESTMapping barV2alpha1 = mapping("bar", "v2alpha1");
    RESTMapping barV1 = mapping("bar", "v1");
    PriorityRESTMapper honors =
        new PriorityRESTMapper(
            MultiRESTMapper.of(mappings(barV2alpha1), mappings(barV1)),
            List.of(),
            List.of(
                new PriorityRESTMapper.Pattern("bar", "v2alpha1", "*"),
                new PriorityRESTMapper.Pattern("bar", "*", "*")));
    assertSame(barV1, honors.restMapping(GroupKind.of("bar", "Foo"), "v1"));
    assertSame(barV2alpha1, honors.restMapping(GroupKind.of("bar", "Foo"), "v2alpha1"));
  }
}
