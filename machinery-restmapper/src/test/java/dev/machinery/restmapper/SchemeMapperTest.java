package dev.machinery.restmapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.runtime.ApiObject;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.discovery.Enablement;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SchemeMapperTest {
  public static final class Widget extends TypeMeta {}

  public static final class WidgetList extends TypeMeta {}

  public static final class Gateway extends TypeMeta {}

  public static final class Node extends TypeMeta {}

  static final GroupVersion V1 = GroupVersion.of("example.dev", "v1");
  static final GroupVersion V1BETA1 = GroupVersion.of("example.dev", "v1beta1");
  static final GroupVersion CORE = GroupVersion.of("", "v1");

  static Scheme scheme() {
    Scheme.Builder builder =
        MetaV1.addToScheme(Scheme.builder())
            .addKnownTypes(V1, Widget.class, WidgetList.class)
            .addKnownTypes(V1BETA1, Widget.class, Gateway.class)
            .addKnownTypes(CORE, Node.class)
            .setVersionPriority(V1, V1BETA1);
    return MetaV1.addToGroupVersion(builder, V1).build();
  }

  private static Class<? extends ApiObject> unused() {
    return Widget.class;
  }

  @Test
  void mapsEveryRegisteredKindOfEveryEnabledVersion() {
    DiscoveryRESTMapper mapper =
        DiscoveryRESTMapper.fromScheme(
            scheme(), Enablement.all(), Set.of(GroupKind.of("", "Node")));
    assertEquals(V1.withKind("Widget"), mapper.kindFor(GroupVersionResource.of("", "", "widgets")));
    assertEquals(
        V1BETA1.withKind("Gateway"), mapper.kindFor(GroupVersionResource.of("", "", "gatewaies")));
    assertEquals(Scope.ROOT, mapper.restMapping(GroupKind.of("", "Node")).scope());
    assertEquals(
        V1.withKind("WidgetList"), mapper.kindFor(GroupVersionResource.of("", "", "widgetlists")));
    assertThrows(
        NoResourceMatchException.class,
        () -> mapper.kindFor(GroupVersionResource.of("", "", "listoptionses")));
    assertThrows(
        NoResourceMatchException.class,
        () -> mapper.kindFor(GroupVersionResource.of("", "", "statuses")));
    assertEquals(Widget.class, unused());
  }

  @Test
  void disabledVersionsAreLeftOut() {
    DiscoveryRESTMapper mapper =
        DiscoveryRESTMapper.fromScheme(
            scheme(), Enablement.parse("example.dev/v1=false"), Set.of());
    assertEquals(
        V1BETA1.withKind("Widget"), mapper.kindFor(GroupVersionResource.of("", "", "widgets")));
    // As client-go's discovery mapper, every resource brings its <Kind>List: only v1beta1's here.
    assertEquals(
        java.util.List.of(V1BETA1.withResource("widgetlists")),
        mapper.resourcesFor(GroupVersionResource.of("", "", "widgetlists")));
    assertThrows(
        NoResourceMatchException.class,
        () -> mapper.kindFor(GroupVersionResource.of("example.dev", "v1", "widgets")));
  }
}
