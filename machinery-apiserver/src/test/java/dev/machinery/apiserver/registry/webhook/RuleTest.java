package dev.machinery.apiserver.registry.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.admission.Operation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A webhook rule's matching, with the cases of Kubernetes' {@code
 * pkg/admission/plugin/webhook/predicates/rules/rules_test.go}: each dimension tested alone (the
 * others {@code *}).
 */
class RuleTest {
  /** A request: group, version, resource, subresource, namespace, operation. */
  private record Req(String g, String v, String r, String sub, String ns, Operation op) {}

  private static Req a(String g, String v, String r, String sub) {
    return new Req(g, v, r, sub, "ns", Operation.CREATE);
  }

  private static Req cluster(String g, String v, String r, String sub) {
    return new Req(g, v, r, sub, "", Operation.CREATE);
  }

  private static Req op(Operation operation) {
    return new Req("g", "v", "r", "", "ns", operation);
  }

  private static final List<String> ALL = List.of("*");

  private static void check(Rule rule, List<Req> match, List<Req> noMatch) {
    for (Req m : match) {
      assertEquals(
          true, rule.matches(m.op(), m.g(), m.v(), m.r(), m.sub(), m.ns()), rule + " " + m);
    }
    for (Req m : noMatch) {
      assertEquals(
          false, rule.matches(m.op(), m.g(), m.v(), m.r(), m.sub(), m.ns()), rule + " " + m);
    }
  }

  @Test
  void group() {
    check(new Rule(ALL, ALL, ALL, List.of("*/*"), "*"), List.of(a("g", "v", "r", "")), List.of());
    check(
        new Rule(ALL, List.of("g1", "g2"), ALL, List.of("*/*"), "*"),
        List.of(a("g1", "v", "r", ""), a("g2", "v2", "r3", "")),
        List.of(a("g3", "v", "r", ""), a("g4", "v", "r", "")));
  }

  @Test
  void version() {
    check(new Rule(ALL, ALL, ALL, List.of("*/*"), "*"), List.of(a("g", "v", "r", "")), List.of());
    check(
        new Rule(ALL, ALL, List.of("v1", "v2"), List.of("*/*"), "*"),
        List.of(a("g1", "v1", "r", ""), a("g2", "v2", "r", "")),
        List.of(a("g1", "v3", "r", ""), a("g2", "v4", "r", "")));
  }

  @Test
  void operation() {
    List<String> any = List.of("*/*");
    check(
        new Rule(ALL, ALL, ALL, any, "*"),
        List.of(op(Operation.CREATE), op(Operation.UPDATE), op(Operation.DELETE)),
        List.of());
    check(
        new Rule(List.of("CREATE"), ALL, ALL, any, "*"),
        List.of(op(Operation.CREATE)),
        List.of(op(Operation.UPDATE), op(Operation.DELETE)));
    check(
        new Rule(List.of("UPDATE"), ALL, ALL, any, "*"),
        List.of(op(Operation.UPDATE)),
        List.of(op(Operation.CREATE), op(Operation.DELETE)));
    check(
        new Rule(List.of("DELETE"), ALL, ALL, any, "*"),
        List.of(op(Operation.DELETE)),
        List.of(op(Operation.CREATE), op(Operation.UPDATE)));
    check(
        new Rule(List.of("CONNECT"), ALL, ALL, any, "*"),
        List.of(),
        List.of(op(Operation.CREATE), op(Operation.UPDATE), op(Operation.DELETE)));
    check(
        new Rule(List.of("UPDATE", "DELETE"), ALL, ALL, any, "*"),
        List.of(op(Operation.UPDATE), op(Operation.DELETE)),
        List.of(op(Operation.CREATE)));
  }

  @Test
  void resource() {
    check(
        new Rule(ALL, ALL, ALL, List.of("*"), "*"),
        List.of(a("g", "v", "r", ""), a("2", "v", "r2", "")),
        List.of(a("g", "v", "r", "exec"), a("2", "v", "r2", "proxy")));
    check(
        new Rule(ALL, ALL, ALL, List.of("r/*"), "*"),
        List.of(a("g", "v", "r", ""), a("g", "v", "r", "exec")),
        List.of(a("2", "v", "r2", ""), a("2", "v", "r2", "proxy")));
    check(
        new Rule(ALL, ALL, ALL, List.of("r/*", "r2"), "*"),
        List.of(a("g", "v", "r", ""), a("g", "v", "r", "exec"), a("2", "v", "r2", "")),
        List.of(a("2", "v", "r2", "proxy")));
    check(
        new Rule(ALL, ALL, ALL, List.of("*/proxy", "*/exec"), "*"),
        List.of(a("g", "v", "r", "exec"), a("2", "v", "r2", "proxy"), a("2", "v", "r3", "proxy")),
        List.of(a("g", "v", "r", ""), a("2", "v", "r2", ""), a("2", "v", "r4", "scale")));
    // What the brief's configurations use: pods/status alone, and everything.
    check(
        new Rule(ALL, ALL, ALL, List.of("pods/status"), "*"),
        List.of(a("", "v1", "pods", "status")),
        List.of(a("", "v1", "pods", ""), a("", "v1", "pods", "binding")));
    check(
        new Rule(ALL, ALL, ALL, List.of("*/*"), "*"),
        List.of(a("", "v1", "pods", ""), a("", "v1", "pods", "status"), a("g", "v", "r", "x")),
        List.of());
  }

  @Test
  void scope() {
    // Kubernetes' table tests the scope alone; every resource and subresource here.
    List<String> any = List.of("*/*");
    check(
        new Rule(ALL, ALL, ALL, any, "Cluster"),
        List.of(
            cluster("g", "v", "r", ""),
            cluster("g", "v", "r", "exec"),
            cluster("", "v1", "namespaces", ""),
            cluster("", "v1", "namespaces", "finalize"),
            a("", "v1", "namespaces", ""),
            a("", "v1", "namespaces", "finalize")),
        List.of(a("g", "v", "r", ""), a("g", "v", "r", "exec")));
    check(
        new Rule(ALL, ALL, ALL, any, "Namespaced"),
        List.of(a("g", "v", "r", ""), a("g", "v", "r", "exec")),
        List.of(
            cluster("", "v1", "namespaces", ""),
            cluster("", "v1", "namespaces", "finalize"),
            a("", "v1", "namespaces", ""),
            a("", "v1", "namespaces", "finalize"),
            cluster("g", "v", "r", ""),
            cluster("g", "v", "r", "exec")));
    check(
        new Rule(ALL, ALL, ALL, any, "*"),
        List.of(
            a("g", "v", "r", ""),
            a("g", "v", "r", "exec"),
            cluster("g", "v", "r", ""),
            cluster("g", "v", "r", "exec"),
            cluster("", "v1", "namespaces", ""),
            cluster("", "v1", "namespaces", "finalize"),
            a("", "v1", "namespaces", ""),
            a("", "v1", "namespaces", "finalize")),
        List.of());
  }
}
