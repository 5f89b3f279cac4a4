package dev.machinery.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.testapi.TestApi;
import dev.machinery.core.testapi.TestObject;
import dev.machinery.core.testapi.apps.Deployment;
import dev.machinery.core.testapi.apps.DeploymentList;
import dev.machinery.core.testapi.compute.Pod;
import dev.machinery.core.testapi.core.Service;
import dev.machinery.core.testapi.frobber.FrobberApi;
import dev.machinery.core.testapi.meta.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class SchemeTest {
  private static final GroupVersionKind DEPLOYMENT =
      GroupVersionKind.of("apps", "v1", "Deployment");

  /** A type registered under explicit kinds in several versions. */
  public static final class Options extends TestObject {}

  /** A type with no no-argument constructor. */
  public static final class NoDefaultConstructor extends TestObject {
    public NoDefaultConstructor(String ignored) {}
  }

  @Test
  void createsObjectsByKindWithTypeFieldsSet() {
    Scheme scheme = TestApi.scheme();
    ApiObject object = (ApiObject) scheme.newObject(DEPLOYMENT);
    assertInstanceOf(Deployment.class, object);
    assertEquals("apps/v1", object.getApiVersion());
    assertEquals("Deployment", object.getKind());
    assertEquals(DEPLOYMENT, object.groupVersionKind());
  }

  @Test
  void defaultsKindNameToSimpleClassName() {
    Scheme scheme = TestApi.scheme();
    assertEquals(List.of(DEPLOYMENT), scheme.kindsFor(Deployment.class));
    assertEquals(List.of(GroupVersionKind.of("", "v1", "Service")), scheme.kindsFor(Service.class));
  }

  @Test
  void keepsIdenticallyNamedKindsOfDifferentGroupsApart() {
    Scheme scheme = TestApi.scheme();
    assertInstanceOf(Pod.class, scheme.newObject(GroupVersionKind.of("compute", "v1", "Pod")));
    assertInstanceOf(
        dev.machinery.core.testapi.experimental.Pod.class,
        scheme.newObject(GroupVersionKind.of("experimental", "v1alpha1", "Pod")));
  }

  @Test
  void registersOneTypeUnderSeveralKinds() {
    GroupVersionKind a = GroupVersionKind.of("apps", "v1", "ListOptions");
    GroupVersionKind b = GroupVersionKind.of("batch", "v1", "ListOptions");
    Scheme scheme =
        TestApi.builder().addKnownType(a, Options.class).addKnownType(b, Options.class).build();
    assertEquals(List.of(a, b), scheme.kindsFor(Options.class));
    Options options = new Options();
    AmbiguousKindException e =
        assertThrows(AmbiguousKindException.class, () -> scheme.kindFor(options));
    assertEquals(List.of(a, b), e.candidates());
    assertEquals(
        "type dev.machinery.core.runtime.SchemeTest$Options is registered as 2 kinds and the"
            + " object's apiVersion null and kind null name none of them; set them to one of:"
            + " apps/v1, Kind=ListOptions; batch/v1, Kind=ListOptions",
        e.getMessage());
    options.setApiVersion("batch/v1");
    options.setKind("ListOptions");
    assertEquals(b, scheme.kindFor(options));
  }

  @Test
  void recognisesUnversionedKindsInEveryRegisteredVersion() {
    Scheme scheme = TestApi.scheme();
    assertTrue(scheme.isUnversioned(Status.class));
    assertFalse(scheme.isUnversioned(Deployment.class));
    assertTrue(scheme.recognizes(GroupVersionKind.of("meta.k8s.io", "v1", "Status")));
    assertTrue(scheme.recognizes(GroupVersionKind.of("", "v1", "Status")));
    assertTrue(scheme.recognizes(GroupVersionKind.of("apps", "v1", "Status")));
    assertFalse(scheme.recognizes(GroupVersionKind.of("unknown.io", "v1", "Status")));
    assertInstanceOf(Status.class, scheme.newObject(GroupVersionKind.of("apps", "v1", "Status")));
    Status status = new Status();
    assertEquals(GroupVersionKind.of("meta.k8s.io", "v1", "Status"), scheme.kindFor(status));
    status.setApiVersion("v1");
    status.setKind("Status");
    assertEquals(GroupVersionKind.of("", "v1", "Status"), scheme.kindFor(status));
  }

  @Test
  void reportsUnknownKindWithWhatIsRegisteredNearby() {
    Scheme scheme = TestApi.scheme();
    NotRegisteredException wrongCase =
        assertThrows(
            NotRegisteredException.class,
            () -> scheme.newObject(GroupVersionKind.of("apps", "v1", "deployment")));
    assertEquals(
        "no kind \"deployment\" is registered for version \"apps/v1\"; did you mean"
            + " \"Deployment\"?; kinds registered for apps/v1: Deployment, DeploymentList, Status",
        wrongCase.getMessage());
    assertEquals(GroupVersionKind.of("apps", "v1", "deployment"), wrongCase.kind().orElseThrow());
    NotRegisteredException wrongVersion =
        assertThrows(
            NotRegisteredException.class,
            () -> scheme.newObject(GroupVersionKind.of("apps", "v2", "Deployment")));
    assertEquals(
        "no kind \"Deployment\" is registered for version \"apps/v2\"; version \"v2\" of group"
            + " \"apps\" is not registered; registered versions: v1",
        wrongVersion.getMessage());
    NotRegisteredException wrongGroup =
        assertThrows(
            NotRegisteredException.class,
            () -> scheme.newObject(GroupVersionKind.of("extensions", "v1beta1", "Deployment")));
    assertEquals(
        "no kind \"Deployment\" is registered for version \"extensions/v1beta1\"; group"
            + " \"extensions\" is not registered; registered groups: \"apps\", \"\", \"compute\","
            + " \"experimental\", \"meta.k8s.io\"",
        wrongGroup.getMessage());
  }

  @Test
  void reportsUnregisteredType() {
    NotRegisteredException e =
        assertThrows(NotRegisteredException.class, () -> TestApi.scheme().kindFor(new Options()));
    assertEquals(
        "type dev.machinery.core.runtime.SchemeTest$Options is not registered in the scheme",
        e.getMessage());
    assertEquals(Options.class, e.type().orElseThrow());
  }

  @Test
  void ordersVersionsByPriorityThenKubernetesOrder() {
    Scheme scheme =
        Scheme.builder()
            .addKnownType(GroupVersionKind.of("apps", "v1beta1", "Options"), Options.class)
            .addKnownType(GroupVersionKind.of("apps", "v1alpha1", "Options"), Options.class)
            .addKnownType(GroupVersionKind.of("apps", "v1", "Options"), Options.class)
            .addKnownType(GroupVersionKind.of("apps", "v1beta2", "Options"), Options.class)
            .addKnownType(GroupVersionKind.of("apps", "__internal", "Options"), Options.class)
            .addKnownType(GroupVersionKind.of("batch", "v2alpha1", "Options"), Options.class)
            .addKnownType(GroupVersionKind.of("batch", "v1", "Options"), Options.class)
            .setVersionPriority(GroupVersion.of("apps", "v1beta1"))
            .build();
    assertEquals(
        List.of(
            GroupVersion.of("apps", "v1beta1"),
            GroupVersion.of("apps", "v1"),
            GroupVersion.of("apps", "v1beta2"),
            GroupVersion.of("apps", "v1alpha1")),
        scheme.prioritizedVersionsForGroup("apps"));
    assertEquals(GroupVersion.of("batch", "v1"), scheme.preferredVersion("batch").orElseThrow());
    assertEquals(6, scheme.prioritizedVersionsAllGroups().size());
    assertTrue(scheme.isVersionRegistered(GroupVersion.internal("apps")));
    assertTrue(scheme.preferredVersion("nothing").isEmpty());
  }

  @Test
  void appliesDefaultingFunctionsInOrder() {
    Scheme scheme =
        TestApi.builder()
            .addDefaultingFunction(
                Service.class, s -> s.setPort(s.getPort() == 0 ? 80 : s.getPort()))
            .addDefaultingFunction(Service.class, s -> s.setPort(s.getPort() + 1))
            .build();
    Service service = new Service();
    scheme.applyDefaults(service);
    assertEquals(81, service.getPort());
    assertTrue(scheme.hasDefaults(Service.class));
    Deployment deployment = new Deployment();
    scheme.applyDefaults(deployment);
    assertEquals(null, deployment.getSpec());
  }

  @Test
  void reportsEveryConflictAtBuild() {
    SchemeBuildException e =
        assertThrows(
            SchemeBuildException.class,
            () ->
                TestApi.builder()
                    .addKnownType(DEPLOYMENT, Service.class)
                    .addKnownType(GroupVersionKind.of("apps", "", "Thing"), Options.class)
                    .addKnownTypes(GroupVersion.of("batch", "v1"), NoDefaultConstructor.class)
                    .addUnversionedTypes(GroupVersion.of("other", "v1"), OtherStatus.Status.class)
                    .addDefaultingFunction(Options.class, o -> {})
                    .setVersionPriority(GroupVersion.of("apps", "v2"))
                    .setVersionPriority(
                        GroupVersion.of("apps", "v1"), GroupVersion.of("batch", "v1"))
                    .requireInternalVersions()
                    .build());
    assertEquals(
        List.of(
            "kind \"apps/, Kind=Thing\" of dev.machinery.core.runtime.SchemeTest$Options must name"
                + " a version and a kind",
            "kind \"apps/v1, Kind=Deployment\" is registered to both"
                + " dev.machinery.core.testapi.apps.Deployment and"
                + " dev.machinery.core.testapi.core.Service",
            "dev.machinery.core.runtime.SchemeTest$NoDefaultConstructor has no public"
                + " no-argument constructor",
            "unversioned kind \"Status\" is registered to both"
                + " dev.machinery.core.testapi.meta.Status and"
                + " dev.machinery.core.runtime.OtherStatus$Status",
            "version priority names \"apps/v2\", which has no registered types; registered"
                + " versions of group \"apps\": v1",
            "version priority [apps/v1, batch/v1] mixes groups \"apps\" and \"batch\"",
            "version priority of group \"apps\" is set more than once",
            "a defaulting function is registered for"
                + " dev.machinery.core.runtime.SchemeTest$Options, which is not a registered type",
            "group \"apps\" has external versions (v1) but no internal version to convert through;"
                + " register its internal types with addInternalTypes",
            "group \"\" has external versions (v1) but no internal version to convert through;"
                + " register its internal types with addInternalTypes",
            "group \"compute\" has external versions (v1) but no internal version to convert"
                + " through; register its internal types with addInternalTypes",
            "group \"experimental\" has external versions (v1alpha1) but no internal version to"
                + " convert through; register its internal types with addInternalTypes",
            "group \"batch\" has external versions (v1) but no internal version to convert"
                + " through; register its internal types with addInternalTypes"),
        e.problems());
    assertTrue(e.getMessage().startsWith("the scheme has 13 problems:\n  - kind "), e.getMessage());
  }

  @Test
  void requiresAnInternalCounterpartForEveryExternalKind() {
    SchemeBuildException e =
        assertThrows(
            SchemeBuildException.class,
            () ->
                Scheme.builder()
                    .addKnownTypes(
                        GroupVersion.of("apps", "v1"), Deployment.class, DeploymentList.class)
                    .addInternalTypes("apps", Deployment.class)
                    .requireInternalVersions()
                    .build());
    assertEquals(
        List.of(
            "kind \"apps/v1, Kind=DeploymentList\" has no internal counterpart"
                + " \"apps/__internal, Kind=DeploymentList\""),
        e.problems());
  }

  @Test
  void aSharedTypeUnderAnExplicitKindNeedsNoInternalCounterpart() {
    Scheme scheme =
        Scheme.builder()
            .addKnownTypes(GroupVersion.of("apps", "v1"), Deployment.class)
            .addSharedType(GroupVersionKind.of("apps", "v1", "ThingList"), DeploymentList.class)
            .addInternalTypes("apps", Deployment.class)
            .requireInternalVersions()
            .build();
    assertEquals(
        GroupVersionKind.of("apps", "v1", "ThingList"), scheme.kindFor(new DeploymentList()));
  }

  @Test
  void conversionsThatWereNeverRegisteredAreABuildProblemIssue11() {
    SchemeBuildException e =
        assertThrows(
            SchemeBuildException.class,
            () ->
                Scheme.builder()
                    .addKnownTypes(
                        FrobberApi.V6, dev.machinery.core.testapi.frobber.v6.Frobber.class)
                    .addKnownTypes(
                        FrobberApi.V7BETA1,
                        dev.machinery.core.testapi.frobber.v7beta1.Frobber.class)
                    .addInternalTypes(
                        FrobberApi.GROUP, dev.machinery.core.testapi.frobber.internal.Frobber.class)
                    .addConversions(
                        new dev.machinery.core.testapi.frobber.v6.GeneratedConversions())
                    .build());
    assertEquals(
        List.of(
            "kind \"example.dev/v7beta1, Kind=Frobber\""
                + " (dev.machinery.core.testapi.frobber.v7beta1.Frobber) has an internal version"
                + " (dev.machinery.core.testapi.frobber.internal.Frobber) but no conversion to or"
                + " from it; register the generated conversions of package"
                + " dev.machinery.core.testapi.frobber.v7beta1 with addConversions(new"
                + " dev.machinery.core.testapi.frobber.v7beta1.GeneratedConversions())"),
        e.problems());
  }

  @Test
  void sharedTypesNeedNoInternalVersionIssue11() {
    Scheme scheme =
        FrobberApi.builder()
            .addSharedTypes(FrobberApi.V6, Options.class)
            .addSharedTypes(GroupVersion.of("meta.example.dev", "v1"), Options.class)
            .build();
    assertEquals(
        List.of(
            FrobberApi.V6.withKind("Options"),
            GroupVersionKind.of("meta.example.dev", "v1", "Options")),
        scheme.kindsFor(Options.class));
  }

  @Test
  void isImmutableAfterBuild() {
    Scheme scheme = TestApi.scheme();
    Map<GroupVersionKind, Class<?>> all = scheme.allKnownTypes();
    assertThrows(UnsupportedOperationException.class, () -> all.put(DEPLOYMENT, Service.class));
    assertThrows(
        UnsupportedOperationException.class,
        () -> scheme.kindsFor(Deployment.class).add(DEPLOYMENT));
    assertEquals(
        Map.of("Deployment", Deployment.class, "DeploymentList", DeploymentList.class),
        scheme.knownTypes(GroupVersion.of("apps", "v1")));
  }

  @Test
  void servesManyThreadsAtOnce() throws Exception {
    Scheme scheme = TestApi.scheme();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Integer>> tasks = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        tasks.add(
            () -> {
              int created = 0;
              for (int i = 0; i < 5_000; i++) {
                Object object = scheme.newObject(DEPLOYMENT);
                assertSame(Deployment.class, object.getClass());
                assertEquals(DEPLOYMENT, scheme.kindFor(object));
                assertTrue(scheme.recognizes(GroupVersionKind.of("apps", "v1", "Status")));
                assertEquals(1, scheme.prioritizedVersionsForGroup("apps").size());
                created++;
              }
              return created;
            });
      }
      for (Future<Integer> result : pool.invokeAll(tasks)) {
        assertEquals(5_000, result.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** A kind that cannot be instantiated. */
  public abstract static class AbstractKind extends TestObject {}

  @Test
  void rejectsTypesItCannotInstantiate() {
    SchemeBuildException e =
        assertThrows(
            SchemeBuildException.class,
            () ->
                Scheme.builder()
                    .addKnownTypes(GroupVersion.of("x.io", "v1"), AbstractKind.class)
                    .build());
    assertEquals(
        List.of(
            "dev.machinery.core.runtime.SchemeTest$AbstractKind must be a public, concrete class"),
        e.problems());
  }
}
