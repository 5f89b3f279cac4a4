package dev.machinery.cluster.controller.endpointslice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.api.core.v1.ObjectReference;
import dev.machinery.api.core.v1.Service;
import dev.machinery.api.core.v1.ServiceSpec;
import dev.machinery.api.discovery.v1.Endpoint;
import dev.machinery.api.discovery.v1.EndpointConditions;
import dev.machinery.api.discovery.v1.EndpointPort;
import dev.machinery.api.discovery.v1.EndpointSlice;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The slice plan, with the facts of Go's endpointslice {@code reconciler_test.go}: 250 endpoints in
 * slices of 100, 100 and 50 ({@code TestReconcileManyPods}); an unchanged set writes nothing
 * ({@code TestReconcileEndpointSlicesSomePreexisting} with nothing to change); new endpoints fill
 * the slice with room before a new one is made; removed endpoints update their slice and an emptied
 * slice is deleted; a Service without endpoints keeps one empty slice ({@code TestReconcileEmpty});
 * slices of a port set or address type no longer wanted are deleted.
 */
class EndpointSlicePlanTest {
  private static final int MAX = 100;

  private static Service service() {
    Service service = new Service();
    ObjectMeta meta = new ObjectMeta();
    meta.setName("svc");
    meta.setNamespace("ns");
    meta.setUid("svc-uid");
    meta.setLabels(Map.of("tier", "web"));
    service.setMetadata(meta);
    ServiceSpec spec = new ServiceSpec();
    spec.setSelector(Map.of("app", "web"));
    service.setSpec(spec);
    return service;
  }

  private static EndpointPort port(int number) {
    EndpointPort port = new EndpointPort();
    port.setName("http");
    port.setPort(number);
    port.setProtocol("TCP");
    return port;
  }

  private static Endpoint endpoint(int i) {
    Endpoint endpoint = new Endpoint();
    endpoint.setAddresses(List.of("10.0." + (i / 250) + "." + (i % 250 + 1)));
    EndpointConditions conditions = new EndpointConditions();
    conditions.setReady(true);
    conditions.setServing(true);
    conditions.setTerminating(false);
    endpoint.setConditions(conditions);
    ObjectReference ref = new ObjectReference();
    ref.setKind("Pod");
    ref.setNamespace("ns");
    ref.setName("pod-" + i);
    ref.setUid("uid-" + i);
    endpoint.setTargetRef(ref);
    return endpoint;
  }

  private static Map<String, EndpointSliceController.Group> desired(int port, int from, int to) {
    EndpointSliceController.Group group = new EndpointSliceController.Group(List.of(port(port)));
    for (int i = from; i < to; i++) {
      Endpoint endpoint = endpoint(i);
      group.endpoints.put(EndpointSliceController.identity(endpoint), endpoint);
    }
    Map<String, EndpointSliceController.Group> desired = new LinkedHashMap<>();
    desired.put(EndpointSliceController.portsKey(group.ports), group);
    return desired;
  }

  private static EndpointSlice slice(String name, int port, int from, int to) {
    EndpointSlice slice = new EndpointSlice();
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    meta.setNamespace("ns");
    meta.setUid(name + "-uid");
    meta.setLabels(EndpointSliceController.labels(service()));
    OwnerReference owner = new OwnerReference();
    owner.setApiVersion("v1");
    owner.setKind("Service");
    owner.setName("svc");
    owner.setUid("svc-uid");
    owner.setController(true);
    owner.setBlockOwnerDeletion(true);
    meta.setOwnerReferences(List.of(owner));
    slice.setMetadata(meta);
    slice.setAddressType("IPv4");
    slice.setPorts(List.of(port(port)));
    List<Endpoint> endpoints = new ArrayList<>();
    for (int i = from; i < to; i++) {
      endpoints.add(endpoint(i));
    }
    slice.setEndpoints(endpoints);
    return slice;
  }

  private static List<Integer> sizes(List<EndpointSlice> slices) {
    return slices.stream().map(s -> s.getEndpoints().size()).toList();
  }

  @Test
  void manyEndpointsGoInSlicesOfAHundred() {
    EndpointSliceController.Plan plan =
        EndpointSliceController.plan(service(), List.of(), desired(80, 0, 250), MAX);
    assertEquals(List.of(100, 100, 50), sizes(plan.create));
    EndpointSlice first = plan.create.get(0);
    assertEquals("svc-", first.getMetadata().getGenerateName());
    assertEquals("svc", first.getMetadata().getLabels().get("kubernetes.io/service-name"));
    assertEquals(
        "endpointslice-controller.k8s.io",
        first.getMetadata().getLabels().get("endpointslice.kubernetes.io/managed-by"));
    assertEquals("web", first.getMetadata().getLabels().get("tier"));
    assertEquals("svc-uid", first.getMetadata().getOwnerReferences().get(0).getUid());
    assertEquals("IPv4", first.getAddressType());
    assertEquals(List.of(port(80)), first.getPorts());
    assertTrue(plan.update.isEmpty() && plan.delete.isEmpty());
  }

  @Test
  void anUnchangedSetWritesNothing() {
    EndpointSliceController.Plan plan =
        EndpointSliceController.plan(
            service(),
            List.of(slice("a", 80, 0, 100), slice("b", 80, 100, 130)),
            desired(80, 0, 130),
            MAX);
    assertTrue(plan.create.isEmpty() && plan.update.isEmpty() && plan.delete.isEmpty());
  }

  @Test
  void newEndpointsFillASliceWithRoomFirst() {
    EndpointSliceController.Plan plan =
        EndpointSliceController.plan(
            service(),
            List.of(slice("full", 80, 0, 100), slice("half", 80, 100, 150)),
            desired(80, 0, 160),
            MAX);
    assertEquals(List.of(), plan.create);
    assertEquals(1, plan.update.size());
    assertEquals("half", plan.update.get(0).getMetadata().getName());
    assertEquals(60, plan.update.get(0).getEndpoints().size());

    // Past the room there is: a new slice for the rest.
    plan =
        EndpointSliceController.plan(
            service(), List.of(slice("full", 80, 0, 100)), desired(80, 0, 130), MAX);
    assertEquals(List.of(30), sizes(plan.create));
    assertTrue(plan.update.isEmpty());
  }

  @Test
  void removedEndpointsUpdateTheirSliceAndAnEmptiedSliceGoes() {
    EndpointSliceController.Plan plan =
        EndpointSliceController.plan(
            service(),
            List.of(slice("a", 80, 0, 100), slice("b", 80, 100, 110)),
            desired(80, 5, 100),
            MAX);
    assertEquals(1, plan.update.size());
    assertEquals("a", plan.update.get(0).getMetadata().getName());
    assertEquals(95, plan.update.get(0).getEndpoints().size());
    assertEquals(List.of("b"), plan.delete.stream().map(s -> s.getMetadata().getName()).toList());
    assertTrue(plan.create.isEmpty());
  }

  @Test
  void noEndpointsKeepOneEmptySlice() {
    EndpointSliceController.Plan plan =
        EndpointSliceController.plan(service(), List.of(), Map.of(), MAX);
    assertEquals(1, plan.create.size());
    assertTrue(plan.create.get(0).getEndpoints().isEmpty());
    assertTrue(plan.create.get(0).getPorts().isEmpty());

    EndpointSlice placeholder = slice("empty", 80, 0, 0);
    placeholder.setPorts(List.of());
    plan =
        EndpointSliceController.plan(
            service(), List.of(placeholder, slice("old", 80, 0, 3)), Map.of(), MAX);
    assertTrue(plan.create.isEmpty() && plan.update.isEmpty());
    assertEquals(List.of("old"), plan.delete.stream().map(s -> s.getMetadata().getName()).toList());
  }

  @Test
  void slicesOfAnotherPortOrAddressTypeGo() {
    EndpointSlice v6 = slice("v6", 80, 0, 3);
    v6.setAddressType("IPv6");
    EndpointSliceController.Plan plan =
        EndpointSliceController.plan(
            service(), List.of(slice("port80", 80, 0, 3), v6), desired(8080, 0, 3), MAX);
    assertEquals(
        List.of("v6", "port80"), plan.delete.stream().map(s -> s.getMetadata().getName()).toList());
    assertEquals(List.of(3), sizes(plan.create));
    assertEquals(List.of(port(8080)), plan.create.get(0).getPorts());
  }
}
