package dev.machinery.builtins;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One built-in resource in one version as Kubernetes' OpenAPI paths describe it: its kind and the
 * name of its schema, scope, the verbs its paths offer, its subresources, and whether a delete
 * answers the deleted object (the operation's response is the kind, not a {@code Status}).
 * Immutable.
 */
record BuiltinResource(
    GroupVersion version,
    String resource,
    String kind,
    String definition,
    String listDefinition,
    boolean namespaced,
    Set<String> verbs,
    Set<String> subresources,
    boolean deleteReturnsObject) {

  private static final Pattern PATH =
      Pattern.compile(
          "^/(?:api|apis/([^/]+))/([^/]+)/(?:(namespaces/\\{namespace\\})/)?([a-z0-9]+)"
              + "(/\\{name\\})?(?:/([a-z]+))?$");

  /** The kind's group, version and kind. */
  GroupVersionKind groupVersionKind() {
    return version.withKind(kind);
  }

  /**
   * Every resource an OpenAPI document's paths describe with a kind of its own, in the document's
   * order ({@link KubeOpenApiDigest} keeps them).
   */
  static List<BuiltinResource> fromPaths(JsonNode paths) {
    Map<String, Builder> found = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> path : paths.properties()) {
      Matcher m = PATH.matcher(path.getKey());
      if (!m.matches() || m.group(4).equals("watch")) {
        continue;
      }
      String group = m.group(1) == null ? "" : m.group(1);
      GroupVersion version = GroupVersion.of(group, m.group(2));
      String key = group + "/" + version.version() + "/" + m.group(4);
      Builder builder = found.computeIfAbsent(key, k -> new Builder(version, m.group(4)));
      boolean item = m.group(5) != null;
      String subresource = m.group(6);
      if (m.group(3) != null) {
        builder.namespaced = true;
      }
      for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
        JsonNode op = operation.getValue();
        String action = op.path("x-kubernetes-action").asText("");
        if (action.isEmpty()) {
          continue;
        }
        if (subresource != null) {
          builder.subresources.add(subresource);
          continue;
        }
        builder.actions.add(item ? action : "collection:" + action);
        String ref = op.path("responses").path("200").path("schema").path("$ref").asText("");
        String name = ref.startsWith("#/definitions/") ? ref.substring(14) : "";
        switch (operation.getKey()) {
          case "get" -> {
            if (item) {
              builder.definition = name;
              builder.kind = op.path("x-kubernetes-group-version-kind").path("kind").asText("");
            } else if (action.equals("list")) {
              builder.listDefinition = name;
            }
          }
          case "delete" -> {
            if (item) {
              builder.deleteReturnsObject = !name.isEmpty() && !name.endsWith(".Status");
            }
          }
          default -> {}
        }
      }
    }
    List<BuiltinResource> out = new ArrayList<>();
    for (Builder builder : found.values()) {
      if (builder.definition != null && builder.kind != null && !builder.kind.isEmpty()) {
        out.add(builder.build());
      }
    }
    return out;
  }

  private static final class Builder {
    private final GroupVersion version;
    private final String resource;
    private final Set<String> actions = new TreeSet<>();
    private final Set<String> subresources = new TreeSet<>();
    private String kind;
    private String definition;
    private String listDefinition;
    private boolean namespaced;
    private boolean deleteReturnsObject;

    Builder(GroupVersion version, String resource) {
      this.version = version;
      this.resource = resource;
    }

    BuiltinResource build() {
      // Discovery's verbs, from the operations' actions: a list is also watched.
      Set<String> verbs = new TreeSet<>();
      for (String action : actions) {
        switch (action) {
          case "collection:post" -> verbs.add("create");
          case "collection:list" -> {
            verbs.add("list");
            verbs.add("watch");
          }
          case "collection:deletecollection" -> verbs.add("deletecollection");
          case "get" -> verbs.add("get");
          case "put" -> verbs.add("update");
          case "patch" -> verbs.add("patch");
          case "delete" -> verbs.add("delete");
          default -> {}
        }
      }
      return new BuiltinResource(
          version,
          resource,
          kind,
          definition,
          listDefinition,
          namespaced,
          Set.copyOf(verbs),
          Set.copyOf(subresources),
          deleteReturnsObject);
    }
  }
}
