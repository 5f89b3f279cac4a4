package dev.machinery.apiserver.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The control plane's default roles against kube-apiserver 1.33's: a sample of Kubernetes' own test
 * data ({@code bootstrappolicy/testdata}, copied into {@code rbac/kube-1.33-roles-sample.yaml} with
 * its source) compared rule by rule, the controllers' role names, their bindings to the {@code
 * kube-system} service accounts, and what the roles let the components do.
 */
class KubeControlPlaneRolesTest {
  private static final Scheme SCHEME =
      RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();

  private static List<Object> sample() throws IOException {
    try (InputStream in =
        KubeControlPlaneRolesTest.class.getResourceAsStream("/rbac/kube-1.33-roles-sample.yaml")) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return CodecFactory.create(SCHEME).yaml().decodeAll(text).stream()
          .map(Decoded::object)
          .toList();
    }
  }

  static Stream<ClusterRole> sampledRoles() throws IOException {
    return sample().stream().filter(ClusterRole.class::isInstance).map(ClusterRole.class::cast);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sampledRoles")
  void theRulesAreKubes(ClusterRole kube) {
    String name = kube.getMetadata().getName();
    ClusterRole ours =
        BootstrapPolicy.clusterRoles().stream()
            .filter(r -> r.getMetadata().getName().equals(name))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no default role " + name));
    assertEquals(kube.getRules(), ours.getRules(), name);
    assertEquals(
        Map.of(BootstrapPolicy.BOOTSTRAPPING_LABEL, "rbac-defaults"),
        ours.getMetadata().getLabels());
    assertEquals(
        Map.of(BootstrapPolicy.AUTOUPDATE_ANNOTATION, "true"), ours.getMetadata().getAnnotations());
  }

  @Test
  void theSampledBindingIsKubes() throws IOException {
    ClusterRoleBinding kube =
        sample().stream()
            .filter(ClusterRoleBinding.class::isInstance)
            .map(ClusterRoleBinding.class::cast)
            .findFirst()
            .orElseThrow();
    ClusterRoleBinding ours = binding(kube.getMetadata().getName()).orElseThrow();
    assertEquals(kube.getRoleRef(), ours.getRoleRef());
    assertEquals(kube.getSubjects().size(), ours.getSubjects().size());
    Subject expected = kube.getSubjects().get(0);
    Subject actual = ours.getSubjects().get(0);
    assertEquals(
        List.of(expected.kind(), expected.name(), expected.namespace()),
        List.of(actual.kind(), actual.name(), actual.namespace()));
  }

  /** The controllers' roles of kube 1.33 with its default feature gates, and no others. */
  @Test
  void theControllersAreThoseOfKube133() {
    List<String> names =
        BootstrapPolicy.controllerRoles().stream().map(r -> r.getMetadata().getName()).toList();
    List<String> expected =
        Stream.of(
                "attachdetach-controller",
                "certificate-controller",
                "clusterrole-aggregation-controller",
                "cronjob-controller",
                "daemon-set-controller",
                "deployment-controller",
                "disruption-controller",
                "endpoint-controller",
                "endpointslice-controller",
                "endpointslicemirroring-controller",
                "ephemeral-volume-controller",
                "expand-controller",
                "generic-garbage-collector",
                "horizontal-pod-autoscaler",
                "job-controller",
                "legacy-service-account-token-cleaner",
                "namespace-controller",
                "node-controller",
                "persistent-volume-binder",
                "pod-garbage-collector",
                "pv-protection-controller",
                "pvc-protection-controller",
                "replicaset-controller",
                "replication-controller",
                "resourcequota-controller",
                "root-ca-cert-publisher",
                "route-controller",
                "selinux-warning-controller",
                "service-account-controller",
                "service-cidrs-controller",
                "service-controller",
                "statefulset-controller",
                "ttl-after-finished-controller",
                "ttl-controller",
                "validatingadmissionpolicy-status-controller")
            .map(n -> "system:controller:" + n)
            .toList();
    assertEquals(expected, names);
    Map<String, ClusterRoleBinding> bindings =
        BootstrapPolicy.clusterRoleBindings().stream()
            .collect(Collectors.toMap(b -> b.getMetadata().getName(), Function.identity()));
    for (String name : expected) {
      ClusterRoleBinding binding = bindings.get(name);
      assertEquals(RoleRef.clusterRole(name), binding.getRoleRef(), name);
      assertEquals(
          List.of(
              Subject.serviceAccount("kube-system", name.substring("system:controller:".length()))),
          binding.getSubjects(),
          name);
    }
  }

  @Test
  void theComponentsAreBoundAsKubeBindsThem() {
    assertEquals(
        List.of(Subject.user("system:kube-controller-manager")),
        binding("system:kube-controller-manager").orElseThrow().getSubjects());
    assertEquals(
        List.of(Subject.user("system:kube-scheduler")),
        binding("system:kube-scheduler").orElseThrow().getSubjects());
    ClusterRoleBinding node = binding("system:node").orElseThrow();
    assertEquals(RoleRef.clusterRole("system:node"), node.getRoleRef());
    assertTrue(
        node.getSubjects() == null || node.getSubjects().isEmpty(),
        "kube keeps system:node's binding with no subjects");
    List<String> names = new ArrayList<>();
    BootstrapPolicy.clusterRoles().forEach(r -> names.add(r.getMetadata().getName()));
    assertEquals(names.stream().sorted().toList(), names, "sorted by name");
  }

  /**
   * What the default policy lets each component do: the user or service account, the verb, group,
   * resource, subresource, and whether it is allowed.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          system:serviceaccount:kube-system:namespace-controller | update | '' | namespaces | finalize | true
          system:serviceaccount:kube-system:namespace-controller | deletecollection | apps | deployments | '' | true
          system:serviceaccount:kube-system:namespace-controller | create | '' | pods | '' | false
          system:serviceaccount:kube-system:generic-garbage-collector | patch | apps | replicasets | '' | true
          system:serviceaccount:kube-system:generic-garbage-collector | create | apps | replicasets | '' | false
          system:serviceaccount:kube-system:replicaset-controller | create | '' | pods | '' | true
          system:serviceaccount:kube-system:replicaset-controller | update | apps | replicasets | finalizers | true
          system:serviceaccount:kube-system:deployment-controller | create | apps | replicasets | '' | true
          system:serviceaccount:kube-system:job-controller | update | batch | jobs | status | true
          system:serviceaccount:kube-system:pod-garbage-collector | delete | '' | pods | '' | true
          system:serviceaccount:kube-system:other-controller | delete | '' | pods | '' | false
          system:kube-scheduler | create | '' | pods | binding | true
          system:kube-scheduler | update | '' | pods | '' | false
          system:kube-controller-manager | list | apps | deployments | '' | true
          system:kube-controller-manager | delete | apps | deployments | '' | false
          system:node:worker-1 | update | '' | pods | status | false
          """)
  void theComponentsMayDoWhatKubeLetsThem(
      String user,
      String verb,
      String group,
      String resource,
      String subresource,
      boolean allowed) {
    List<Object> objects = new ArrayList<>(BootstrapPolicy.clusterRoles());
    objects.addAll(BootstrapPolicy.clusterRoleBindings());
    RbacAuthorizer authorizer = RbacAuthorizer.of(RbacPolicy.of(objects));
    List<String> groups = new ArrayList<>(List.of(UserInfo.ALL_AUTHENTICATED));
    if (user.startsWith("system:serviceaccount:")) {
      groups.add("system:serviceaccounts");
      groups.add("system:serviceaccounts:kube-system");
    } else if (user.startsWith("system:node:")) {
      groups.add("system:nodes");
    }
    Attributes attributes =
        Attributes.resource(
            UserInfo.of(user, groups), verb, group, resource, subresource, "default", "x");
    assertEquals(
        allowed,
        authorizer.authorize(attributes).allowed(),
        user + " " + verb + " " + resource + "/" + subresource);
  }

  private static Optional<ClusterRoleBinding> binding(String name) {
    return BootstrapPolicy.clusterRoleBindings().stream()
        .filter(b -> b.getMetadata().getName().equals(name))
        .findFirst();
  }

  @Test
  void noControllerRoleIsListedTwice() {
    List<String> names =
        BootstrapPolicy.clusterRoles().stream().map(r -> r.getMetadata().getName()).toList();
    assertFalse(names.size() != names.stream().distinct().count(), names.toString());
  }
}
