package dev.machinery.restmapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.meta.v1.APIResource;
import dev.machinery.unversioned.meta.v1.APIResourceList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Laws over every resource of the real discovery mapper. */
class MapperProperties {
  private static final DiscoveryRESTMapper MAPPER = RealDiscovery.legacyMapper();

  @Test
  void everyResourceMapsToItsKindAndBack() {
    for (RESTMapping mapping : MAPPER.allMappings()) {
      assertEquals(
          mapping.groupVersionKind(), MAPPER.kindFor(mapping.resource()), mapping.toString());
      assertEquals(mapping.resource(), MAPPER.resourceFor(mapping.resource()), mapping.toString());
      assertEquals(
          mapping,
          MAPPER.restMapping(
              mapping.groupVersionKind().groupKind(), mapping.groupVersionKind().version()),
          mapping.toString());
    }
  }

  @Test
  void everySpellingOfAResourceResolvesToOneMapping() {
    int checked = 0;
    for (APIResourceList list : RealDiscovery.resourceLists()) {
      GroupVersionResource any =
          dev.machinery.core.schema.GroupVersion.parse(list.getGroupVersion()).withResource("x");
      if (!MAPPER.groupVersions().contains(any.groupVersion())) {
        continue;
      }
      for (APIResource resource : list.getResources()) {
        if (resource.getName().contains("/")) {
          continue;
        }
        // The core group has no dotted version form: pods, pod, Pod (the core group wins).
        String qualifier = any.group().isEmpty() ? "" : "." + any.version() + "." + any.group();
        RESTMapping full = ResourceArguments.mappingFor(MAPPER, resource.getName() + qualifier);
        assertEquals(
            any.groupVersion(), full.groupVersionKind().groupVersion(), resource.getName());
        List<String> spellings = new java.util.ArrayList<>();
        if (!resource.getSingularName().isEmpty()) {
          spellings.add(resource.getSingularName() + qualifier);
        }
        spellings.add(resource.getKind() + qualifier);
        for (String spelling : spellings) {
          assertEquals(full, ResourceArguments.mappingFor(MAPPER, spelling), spelling);
          checked++;
        }
      }
    }
    assertTrue(checked > 150, "checked " + checked);
  }

  @Test
  void everyShortNameResolvesToTheMappingOfItsResource() {
    for (Map.Entry<String, List<GroupResource>> entry : MAPPER.shortNames().entrySet()) {
      GroupResource longForm = entry.getValue().get(0);
      if (MAPPER
          .expandShortName(GroupVersionResource.of("", "", entry.getKey()))
          .resource()
          .equals(entry.getKey())) {
        continue; // a resource has this name itself, and wins, as in kubectl
      }
      String qualified = entry.getKey() + suffix(longForm.group());
      assertEquals(
          ResourceArguments.mappingFor(MAPPER, longForm.resource() + suffix(longForm.group())),
          ResourceArguments.mappingFor(MAPPER, qualified),
          qualified);
    }
  }

  private static String suffix(String group) {
    return group.isEmpty() ? "" : "." + group;
  }
}
