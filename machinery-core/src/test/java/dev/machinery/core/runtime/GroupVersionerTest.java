package dev.machinery.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Issue 12: {@code GroupVersioner.of} chooses as Go's {@code GroupVersions} does. */
class GroupVersionerTest {
  private static final GroupVersion APPS_V1 = GroupVersion.of("apps", "v1");
  private static final GroupVersion EXTENSIONS = GroupVersion.of("extensions", "v1beta1");

  @Test
  void anExactVersionMatchBeatsTheFirstGroupMatch() {
    List<GroupVersionKind> kinds =
        List.of(APPS_V1.withKind("Deployment"), EXTENSIONS.withKind("Deployment"));
    assertEquals(
        Optional.of(EXTENSIONS.withKind("Deployment")),
        GroupVersioner.of(GroupVersion.of("apps", "v2"), EXTENSIONS)
            .kindForGroupVersionKinds(kinds));
    assertEquals(
        Optional.of(APPS_V1.withKind("Deployment")),
        GroupVersioner.of(EXTENSIONS, APPS_V1)
            .kindForGroupVersionKinds(List.of(APPS_V1.withKind("Deployment"))));
  }

  @Test
  void withoutAnExactMatchTheFirstTargetOfAMatchingGroupWins() {
    List<GroupVersionKind> kinds = List.of(APPS_V1.withKind("Deployment"));
    assertEquals(
        Optional.of(GroupVersion.of("apps", "v2").withKind("Deployment")),
        GroupVersioner.of(GroupVersion.of("apps", "v2"), GroupVersion.of("apps", "v3"))
            .kindForGroupVersionKinds(kinds));
    assertEquals(
        Optional.empty(),
        GroupVersioner.of(GroupVersion.of("batch", "v1")).kindForGroupVersionKinds(kinds));
    // The exact version of one target is preferred to another target's group match.
    assertEquals(
        Optional.of(APPS_V1.withKind("Deployment")),
        GroupVersioner.of(GroupVersion.of("apps", "v2"), APPS_V1).kindForGroupVersionKinds(kinds));
  }
}
