package dev.machinery.restmapper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.meta.v1.APIGroup;
import dev.machinery.unversioned.meta.v1.APIGroupList;
import dev.machinery.unversioned.meta.v1.APIResource;
import dev.machinery.unversioned.meta.v1.APIResourceList;
import dev.machinery.unversioned.meta.v1.GroupVersionForDiscovery;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The cases of client-go's {@code TestReplaceAliases} and {@code TestWarnAmbigious}
 * (restmapper/shortcut_test.go): a short name expands to the first resource that has it, with
 * kubectl's warning for each other resource that has it too, and a name that is a resource's (or
 * its singular) is never expanded. Each discovery is written as {@code groupVersion:name[/singular]
 * [=short,short]} entries; resource lists of one group version are merged, in order.
 */
class GoShortcutExpanderTablesTest {
  private static DiscoveryRESTMapper discovery(String... entries) {
    Map<String, List<APIResource>> byVersion = new LinkedHashMap<>();
    for (String entry : entries) {
      String[] parts = entry.split(":");
      String[] nameAndShorts = parts[1].split("=");
      String[] names = nameAndShorts[0].split("/");
      APIResource resource = new APIResource();
      resource.setName(names[0]);
      resource.setSingularName(names.length > 1 ? names[1] : "");
      resource.setNamespaced(true);
      resource.setKind(Character.toUpperCase(names[0].charAt(0)) + names[0].substring(1));
      resource.setVerbs(List.of("get"));
      resource.setShortNames(
          nameAndShorts.length > 1 ? List.of(nameAndShorts[1].split(",")) : List.of());
      byVersion.computeIfAbsent(parts[0], gv -> new ArrayList<>()).add(resource);
    }
    List<APIResourceList> lists = new ArrayList<>();
    Map<String, APIGroup> groups = new LinkedHashMap<>();
    byVersion.forEach(
        (groupVersion, resources) -> {
          APIResourceList list = new APIResourceList();
          list.setGroupVersion(groupVersion);
          list.setResources(resources);
          lists.add(list);
          GroupVersion gv = GroupVersion.parse(groupVersion);
          if (gv.group().isEmpty()) {
            return;
          }
          GroupVersionForDiscovery version = new GroupVersionForDiscovery();
          version.setGroupVersion(groupVersion);
          version.setVersion(gv.version());
          APIGroup group =
              groups.computeIfAbsent(
                  gv.group(),
                  name -> {
                    APIGroup created = new APIGroup();
                    created.setName(name);
                    created.setVersions(new ArrayList<>());
                    created.setPreferredVersion(version);
                    return created;
                  });
          group.getVersions().add(version);
        });
    APIGroupList groupList = new APIGroupList();
    groupList.setGroups(new ArrayList<>(groups.values()));
    return DiscoveryRESTMapper.fromDiscovery(groupList, lists);
  }

  private static DiscoveryRESTMapper.ShortNameExpansion expand(
      DiscoveryRESTMapper mapper, String argument) {
    return mapper.expandShortNameWithWarnings(GroupVersionResource.of("", "", argument));
  }

  @Test
  void hpaPriority() {
    DiscoveryRESTMapper mapper =
        discovery(
            "autoscaling/v1:superhorizontalpodautoscalers=hpa",
            "autoscaling/v1:horizontalpodautoscalers=hpa");
    DiscoveryRESTMapper.ShortNameExpansion expanded = expand(mapper, "hpa");
    assertEquals(
        GroupVersionResource.of("autoscaling", "", "superhorizontalpodautoscalers"),
        expanded.resource());
    assertEquals(
        List.of(
            "short name \"hpa\" could also match lower priority resource"
                + " horizontalpodautoscalers.autoscaling"),
        expanded.warnings());
  }

  @Test
  void resourceOverride() {
    DiscoveryRESTMapper mapper =
        discovery("foo/v1:deployments=dpl", "extension/v1beta1:deployments=deploy");
    assertEquals(
        GroupVersionResource.of("foo", "", "deployments"), expand(mapper, "dpl").resource());
  }

  @Test
  void aResourceOrSingularNameIsNotExpanded() {
    DiscoveryRESTMapper mapper = discovery("v1:pods/pod", "acme.com/v1:poddlers=pods,pod");
    assertEquals(GroupVersionResource.of("", "", "pods"), expand(mapper, "pods").resource());
    assertEquals(GroupVersionResource.of("", "", "pod"), expand(mapper, "pod").resource());
    assertEquals(List.of(), expand(mapper, "pod").warnings());
  }

  @Test
  void warnsOfABuiltInShortNameAlsoDefinedElsewhereOnceAcrossVersions() {
    DiscoveryRESTMapper mapper =
        discovery("v1:pods/pod=po", "acme.com/v1:poddlers=po", "acme.com/v1beta1:poddlers=po");
    DiscoveryRESTMapper.ShortNameExpansion expanded = expand(mapper, "po");
    assertEquals(GroupVersionResource.of("", "", "pods"), expanded.resource());
    assertEquals(
        List.of("short name \"po\" could also match lower priority resource poddlers.acme.com"),
        expanded.warnings());
  }

  @Test
  void oneResourceInSeveralVersionsIsNoAmbiguity() {
    DiscoveryRESTMapper mapper =
        discovery(
            "autoscaling/v1alphav1:horizontalpodautoscalers=hpa",
            "autoscaling/v1:horizontalpodautoscalers=hpa",
            "foo/v1:foo=hpa",
            "bar/v1:bar=hpa");
    DiscoveryRESTMapper.ShortNameExpansion expanded = expand(mapper, "hpa");
    assertEquals(
        GroupVersionResource.of("autoscaling", "", "horizontalpodautoscalers"),
        expanded.resource());
    assertEquals(
        List.of(
            "short name \"hpa\" could also match lower priority resource foo.foo",
            "short name \"hpa\" could also match lower priority resource bar.bar"),
        expanded.warnings());
  }

  @Test
  void aVersionGivenWithAShortNameIsDropped() {
    DiscoveryRESTMapper mapper = discovery("autoscaling/v1:horizontalpodautoscalers=hpa");
    assertEquals(
        GroupVersionResource.of("autoscaling", "", "horizontalpodautoscalers"),
        mapper.expandShortName(GroupVersionResource.of("autoscaling", "v2", "hpa")));
  }
}
