package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The lookup tables behind the mappers of this package: every name (plural, singular) and every
 * kind name to its entries, most preferred first, with the unfiltered answers precomputed so that a
 * hit allocates nothing. Immutable.
 */
final class ResourceIndex {
  /** How several matches are resolved. */
  enum Policy {
    /** More than one match is ambiguous (Kubernetes' DefaultRESTMapper). */
    AMBIGUOUS,
    /** The most preferred match wins (Kubernetes' discovery mapper with its priorities). */
    PRIORITY,
    /** Matches in more than one group are ambiguous; within a group the preferred wins. */
    GROUP_AMBIGUOUS
  }

  /** One served kind: plural and singular resources, kind, mapping. */
  record Entry(
      GroupVersionResource plural,
      GroupVersionResource singular,
      GroupVersionKind kind,
      RESTMapping mapping,
      boolean derived) {
    /** An entry of a resource a server announced. */
    Entry(
        GroupVersionResource plural,
        GroupVersionResource singular,
        GroupVersionKind kind,
        RESTMapping mapping) {
      this(plural, singular, kind, mapping, false);
    }
  }

  /** The entries of one name, with their unfiltered answers. */
  static final class Candidates {
    final Entry[] entries;
    final List<GroupVersionKind> kinds;
    final List<GroupVersionResource> resources;

    Candidates(List<Entry> entries) {
      this.entries = entries.toArray(new Entry[0]);
      List<GroupVersionKind> kinds = new ArrayList<>();
      List<GroupVersionResource> resources = new ArrayList<>();
      for (Entry entry : entries) {
        if (!kinds.contains(entry.kind)) {
          kinds.add(entry.kind);
        }
        if (!resources.contains(entry.plural)) {
          resources.add(entry.plural);
        }
      }
      this.kinds = Collections.unmodifiableList(kinds);
      this.resources = Collections.unmodifiableList(resources);
    }
  }

  private final Policy policy;
  private final List<Entry> entries;
  private final Map<String, Candidates> byName;
  private final Map<String, Candidates> byKindName;
  private final Map<String, String> singularByName;

  ResourceIndex(Policy policy, List<Entry> ordered) {
    this.policy = policy;
    this.entries = List.copyOf(ordered);
    Map<String, List<Entry>> names = new LinkedHashMap<>();
    Map<String, List<Entry>> kindNames = new LinkedHashMap<>();
    Map<String, String> singulars = new HashMap<>();
    for (Entry entry : ordered) {
      add(names, entry.plural.resource(), entry);
      add(names, entry.singular.resource(), entry);
      add(kindNames, entry.kind.kind(), entry);
      add(kindNames, entry.kind.kind().toLowerCase(Locale.ROOT), entry);
      singulars.putIfAbsent(entry.plural.resource(), entry.singular.resource());
      singulars.putIfAbsent(entry.singular.resource(), entry.singular.resource());
    }
    this.byName = freeze(names);
    this.byKindName = freeze(kindNames);
    this.singularByName = Map.copyOf(singulars);
  }

  private static void add(Map<String, List<Entry>> map, String key, Entry entry) {
    List<Entry> list = map.computeIfAbsent(key, k -> new ArrayList<>());
    if (!list.contains(entry)) {
      list.add(entry);
    }
  }

  private static Map<String, Candidates> freeze(Map<String, List<Entry>> map) {
    Map<String, Candidates> frozen = new HashMap<>();
    map.forEach((key, list) -> frozen.put(key, new Candidates(list)));
    return frozen;
  }

  List<Entry> entries() {
    return entries;
  }

  static String lower(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c >= 'A' && c <= 'Z' || c > 0x7f) {
        return text.toLowerCase(Locale.ROOT);
      }
    }
    return text;
  }

  /** Whether any entry matches, without building a list. */
  /** Whether a resource of that name exists in the group and version (empty: any). */
  boolean hasMatch(String group, String version, String resource) {
    Candidates all = byName.get(lower(resource));
    if (all == null) {
      return false;
    }
    if (group.isEmpty() && version.isEmpty()) {
      return true;
    }
    for (Entry entry : all.entries) {
      if ((group.isEmpty() || entry.kind.group().equals(group))
          && (version.isEmpty() || entry.kind.version().equals(version))) {
        return true;
      }
    }
    return false;
  }

  /** The matching entries; the precomputed ones when the query has neither group nor version. */
  Candidates match(GroupVersionResource query) {
    if (query.resource().isEmpty()) {
      throw new IllegalArgumentException("a resource name is required, got " + query);
    }
    Candidates all = byName.get(lower(query.resource()));
    if (all == null) {
      return null;
    }
    if (query.group().isEmpty() && query.version().isEmpty()) {
      return all;
    }
    List<Entry> kept = new ArrayList<>(all.entries.length);
    for (Entry entry : all.entries) {
      if ((query.group().isEmpty() || entry.kind.group().equals(query.group()))
          && (query.version().isEmpty() || entry.kind.version().equals(query.version()))) {
        kept.add(entry);
      }
    }
    return kept.isEmpty() ? null : new Candidates(kept);
  }

  GroupVersionKind kindFor(GroupVersionResource query) {
    Entry entry = single(query, true);
    return entry.kind;
  }

  /**
   * The one entry a query resolves to under the policy, found without building candidate lists;
   * throws the miss or the ambiguity.
   */
  private Entry single(GroupVersionResource query, boolean byKind) {
    if (query.resource().isEmpty()) {
      throw new IllegalArgumentException("a resource name is required, got " + query);
    }
    Candidates all = byName.get(lower(query.resource()));
    if (all == null) {
      throw new NoResourceMatchException(query);
    }
    boolean filtered = !query.group().isEmpty() || !query.version().isEmpty();
    Entry first = null;
    boolean several = false;
    boolean severalGroups = false;
    for (Entry entry : all.entries) {
      if (filtered
          && !((query.group().isEmpty() || entry.kind.group().equals(query.group()))
              && (query.version().isEmpty() || entry.kind.version().equals(query.version())))) {
        continue;
      }
      if (first == null) {
        first = entry;
      } else if (byKind ? !entry.kind.equals(first.kind) : !entry.plural.equals(first.plural)) {
        several = true;
        severalGroups |= !entry.kind.group().equals(first.kind.group());
      }
    }
    if (first == null) {
      throw new NoResourceMatchException(query);
    }
    if (!several
        || policy == Policy.PRIORITY
        || (policy == Policy.GROUP_AMBIGUOUS && !severalGroups)) {
      return first;
    }
    Candidates candidates = match(query);
    throw byKind
        ? new AmbiguousResourceException(query, List.of(), candidates.kinds)
        : new AmbiguousResourceException(query, candidates.resources, List.of());
  }

  List<GroupVersionKind> kindsFor(GroupVersionResource query) {
    Candidates candidates = match(query);
    if (candidates == null) {
      throw new NoResourceMatchException(query);
    }
    return candidates.kinds;
  }

  GroupVersionResource resourceFor(GroupVersionResource query) {
    return single(query, false).plural;
  }

  List<GroupVersionResource> resourcesFor(GroupVersionResource query) {
    Candidates candidates = match(query);
    if (candidates == null) {
      throw new NoResourceMatchException(query);
    }
    return candidates.resources;
  }

  /** The mappings of a kind; empty when none. */
  List<RESTMapping> mappingsOrEmpty(GroupKind kind, String... versions) {
    Candidates candidates = byKindName.get(kind.kind());
    List<RESTMapping> mappings = new ArrayList<>();
    boolean hadVersion = false;
    if (candidates != null) {
      for (String version : versions) {
        if (version == null || version.isEmpty() || version.equals("__internal")) {
          continue;
        }
        hadVersion = true;
        for (Entry entry : candidates.entries) {
          if (entry.kind.group().equals(kind.group()) && entry.kind.version().equals(version)) {
            mappings.add(entry.mapping);
            break;
          }
        }
        if (!mappings.isEmpty()) {
          break;
        }
      }
      if (!hadVersion) {
        for (Entry entry : candidates.entries) {
          if (entry.kind.group().equals(kind.group()) && !mappings.contains(entry.mapping)) {
            mappings.add(entry.mapping);
          }
        }
      }
    }
    return Collections.unmodifiableList(mappings);
  }

  List<RESTMapping> restMappings(GroupKind kind, String... versions) {
    List<RESTMapping> mappings = mappingsOrEmpty(kind, versions);
    if (mappings.isEmpty()) {
      throw new NoKindMatchException(kind, nonEmpty(versions));
    }
    return mappings;
  }

  RESTMapping restMapping(GroupKind kind, String... versions) {
    Candidates candidates = byKindName.get(kind.kind());
    if (candidates != null) {
      boolean hadVersion = false;
      for (String version : versions) {
        if (version == null || version.isEmpty() || version.equals("__internal")) {
          continue;
        }
        hadVersion = true;
        for (Entry entry : candidates.entries) {
          if (entry.kind.group().equals(kind.group()) && entry.kind.version().equals(version)) {
            return entry.mapping;
          }
        }
      }
      if (!hadVersion) {
        for (Entry entry : candidates.entries) {
          if (entry.kind.group().equals(kind.group())) {
            return entry.mapping;
          }
        }
      }
    }
    throw new NoKindMatchException(kind, nonEmpty(versions));
  }

  String singular(String resource) {
    String singular = singularByName.get(lower(resource));
    if (singular == null) {
      throw new NoResourceMatchException(GroupVersionResource.of("", "", lower(resource)));
    }
    return singular;
  }

  private static List<String> nonEmpty(String... versions) {
    List<String> list = new ArrayList<>();
    for (String version : versions) {
      if (version != null && !version.isEmpty()) {
        list.add(version);
      }
    }
    return list;
  }
}
