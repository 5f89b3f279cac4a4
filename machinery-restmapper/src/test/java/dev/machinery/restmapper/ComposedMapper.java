package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
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

/**
 * Kubernetes' own composition, built the slow way for comparison: a PriorityRESTMapper over a
 * MultiRESTMapper of one DefaultRESTMapper per group version, with the core group's v1 first, then
 * each group's preferred version, its other versions, and each group as a whole.
 */
final class ComposedMapper {
  private ComposedMapper() {}

  static RESTMapper of(APIGroupList groups, List<APIResourceList> lists) {
    Map<GroupVersion, APIResourceList> byVersion = new LinkedHashMap<>();
    lists.forEach(list -> byVersion.put(GroupVersion.parse(list.getGroupVersion()), list));
    List<RESTMapper> mappers = new ArrayList<>();
    List<PriorityRESTMapper.Pattern> priority = new ArrayList<>();
    priority.add(new PriorityRESTMapper.Pattern("", "v1"));
    mappers.add(mapperFor(GroupVersion.of("", "v1"), byVersion.get(GroupVersion.of("", "v1"))));
    List<String> groupOrder = new ArrayList<>();
    for (APIGroup group : groups.getGroups()) {
      groupOrder.add(group.getName());
      String preferred = group.getPreferredVersion().getVersion();
      if (byVersion.containsKey(GroupVersion.of(group.getName(), preferred))) {
        priority.add(new PriorityRESTMapper.Pattern(group.getName(), preferred));
      }
      for (GroupVersionForDiscovery version : group.getVersions()) {
        GroupVersion gv = GroupVersion.of(group.getName(), version.getVersion());
        if (!byVersion.containsKey(gv)) {
          continue;
        }
        if (!version.getVersion().equals(preferred)) {
          priority.add(new PriorityRESTMapper.Pattern(group.getName(), version.getVersion()));
        }
        mappers.add(mapperFor(gv, byVersion.get(gv)));
      }
    }
    for (String group : groupOrder) {
      priority.add(new PriorityRESTMapper.Pattern(group, PriorityRESTMapper.ANY));
    }
    return new PriorityRESTMapper(MultiRESTMapper.of(mappers), priority, priority);
  }

  private static RESTMapper mapperFor(GroupVersion gv, APIResourceList list) {
    DefaultRESTMapper.Builder builder = DefaultRESTMapper.builder(gv);
    for (APIResource resource : list.getResources()) {
      if (resource.getName().contains("/")) {
        continue;
      }
      GroupVersionKind kind = gv.withKind(resource.getKind());
      GroupVersionResource plural = gv.withResource(resource.getName());
      GroupVersionResource singular =
          resource.getSingularName() == null || resource.getSingularName().isEmpty()
              ? DefaultRESTMapper.guessResources(kind).get(1)
              : gv.withResource(resource.getSingularName());
      Scope scope = resource.isNamespaced() ? Scope.NAMESPACE : Scope.ROOT;
      // The entries client-go's NewDiscoveryRESTMapper makes for a resource, in its order.
      builder.addSpecific(
          gv.withKind(resource.getKind().toLowerCase(java.util.Locale.ROOT)),
          plural,
          singular,
          scope);
      builder.addSpecific(kind, plural, singular, scope);
      builder.add(gv.withKind(resource.getKind() + "List"), scope);
    }
    builder.add(gv.withKind("List"), Scope.ROOT);
    return builder.build();
  }
}
