package dev.machinery.core.merge;

import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.typed.Comparison;
import dev.machinery.core.typed.SchemaType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Records field ownership on writes and merges applied configurations, as structured-merge-diff's
 * {@code merge.Updater}.
 *
 * <p>{@link #update} is for writes that send the whole new object (create, update, patch): the
 * writer comes to own every field it added or changed, and other managers lose the fields it
 * changed or removed. {@link #apply} merges a configuration into the live object: the applier comes
 * to own exactly the fields it applied; fields it applied before and no longer applies are removed
 * unless another manager owns them; and fields another manager owns with a different value are
 * {@link ConflictException conflicts}, unless forced.
 *
 * <p>Managers are a map from a manager's identifier to its {@link VersionedSet}; the maps passed in
 * are not changed, and the maps returned are new, ordered by identifier. Immutable and thread-safe
 * when its converter is.
 */
public final class Updater {
  private final VersionConverter converter;
  private final Function<String, FieldSet> ignoredFields;

  /**
   * Creates an updater.
   *
   * @param converter converts objects to the versions other managers' fields were recorded in
   * @param ignoredFields by API version, fields nobody comes to own through this updater (the
   *     fields a server resets, like {@code status} on a resource with a status subresource); each
   *     path with everything below it
   */
  public Updater(VersionConverter converter, Map<String, FieldSet> ignoredFields) {
    this(converter, Map.copyOf(ignoredFields)::get);
  }

  /**
   * Creates an updater whose ignored fields are given by a function of the API version (the same
   * fields in every version, say).
   *
   * @param converter converts objects to the versions other managers' fields were recorded in
   * @param ignoredFields the fields nobody comes to own in an API version, or {@code null} for
   *     none; called from any thread
   */
  public Updater(VersionConverter converter, Function<String, FieldSet> ignoredFields) {
    this.converter = Objects.requireNonNull(converter, "converter");
    this.ignoredFields = Objects.requireNonNull(ignoredFields, "ignoredFields");
  }

  /**
   * Creates an updater for kinds with one shape in every version and no ignored fields.
   *
   * @return the updater
   */
  public static Updater simple() {
    return new Updater(VersionConverter.identity(), Map.of());
  }

  /**
   * The outcome of a write: the object to store and the managers after it.
   *
   * @param object the object
   * @param managers the managers, ordered by identifier
   * @param changed whether the object differs from the live one
   */
  public record Result(TypedValue object, Map<String, VersionedSet> managers, boolean changed) {}

  /**
   * Records a write that replaces the live object with a new one: the manager comes to own what it
   * added or changed and keeps what it owned and did not remove; every other manager loses what
   * changed or disappeared.
   *
   * @param live the object before the write (a JSON null on create)
   * @param next the object the write stores
   * @param apiVersion the version both are in, which the manager's fields are recorded in
   * @param managers the managers before the write
   * @param manager the writer's identifier
   * @return the new object (the one given) and the managers
   * @throws dev.machinery.core.typed.TypedException if an object does not fit its type
   */
  public Result update(
      TypedValue live,
      TypedValue next,
      String apiVersion,
      Map<String, VersionedSet> managers,
      String manager) {
    Map<String, VersionedSet> out = reconciled(live, managers);
    Comparison compare = changes(live, next, apiVersion, out, manager, true);
    VersionedSet previous = out.get(manager);
    FieldSet set = previous == null ? FieldSet.empty() : previous.set();
    set = set.difference(compare.removed()).union(compare.modified()).union(compare.added());
    FieldSet ignored = ignoredFields.apply(apiVersion);
    if (ignored != null) {
      set = set.recursiveDifference(ignored);
    }
    if (set.isEmpty()) {
      out.remove(manager);
    } else {
      out.put(manager, new VersionedSet(set, apiVersion, false));
    }
    return new Result(next, out, !compare.isSame());
  }

  /**
   * Applies a configuration: merges it into the live object, makes the applier own exactly the
   * fields it applied, removes what it applied last time and no longer applies (when nobody else
   * owns it), and takes fields from other managers only when forced.
   *
   * @param live the object before the apply (a JSON null when it is created by the apply)
   * @param config the applied configuration, in {@code apiVersion}
   * @param apiVersion the version of the configuration
   * @param managers the managers before the apply
   * @param manager the applier's identifier
   * @param force whether to take fields other managers own
   * @return the merged object and the managers
   * @throws ConflictException if, unforced, the apply would change fields other managers own
   * @throws dev.machinery.core.typed.TypedException if an object does not fit its type, or the
   *     configuration holds two items of an associative list with one key
   */
  public Result apply(
      TypedValue live,
      TypedValue config,
      String apiVersion,
      Map<String, VersionedSet> managers,
      String manager,
      boolean force) {
    Map<String, VersionedSet> out = reconciled(live, managers);
    TypedValue merged = live.with(live.type().merge(live.value(), config.value()));
    VersionedSet lastSet = out.get(manager);
    FieldSet set = config.type().toFieldSet(config.value());
    FieldSet ignored = ignoredFields.apply(apiVersion);
    if (ignored != null) {
      set = set.recursiveDifference(ignored);
    }
    out.put(manager, new VersionedSet(set, apiVersion, true));
    merged = prune(merged, out, manager, lastSet);
    changes(live, merged, apiVersion, out, manager, force);
    if (out.get(manager) != null && out.get(manager).set().isEmpty()) {
      out.remove(manager);
    }
    return new Result(merged, out, !live.value().equals(merged.value()));
  }

  /**
   * Brings every manager's fields in line with the live object's type in the manager's version, as
   * structured-merge-diff's {@code reconcileManagedFieldsWithSchemaChanges}: fields recorded below
   * a list or map that has since become atomic become that list or map. Managers whose version the
   * kind no longer has are dropped, as every write drops them. Returns a new map.
   */
  private Map<String, VersionedSet> reconciled(
      TypedValue live, Map<String, VersionedSet> managers) {
    Map<String, VersionedSet> out = new TreeMap<>();
    managers.forEach(
        (manager, owned) ->
            converter
                .convert(live, owned.apiVersion())
                .ifPresent(
                    at -> {
                      FieldSet set = at.type().reconcile(owned.set());
                      out.put(manager, set == owned.set() ? owned : owned.withSet(set));
                    }));
    return out;
  }

  /**
   * Takes from every manager but the writer what the write changed (as conflicts, refused unless
   * forced) and what it removed; drops managers left with nothing. Changes {@code managers}.
   */
  private Comparison changes(
      TypedValue oldObject,
      TypedValue newObject,
      String apiVersion,
      Map<String, VersionedSet> managers,
      String writer,
      boolean force) {
    Comparison compare = filtered(oldObject, newObject, apiVersion);
    Map<String, Optional<Comparison>> byVersion = new HashMap<>();
    byVersion.put(apiVersion, Optional.of(compare));
    Map<String, FieldSet> conflicts = new TreeMap<>();
    Map<String, FieldSet> removed = new TreeMap<>();
    for (var entry : new ArrayList<>(managers.entrySet())) {
      String manager = entry.getKey();
      if (manager.equals(writer)) {
        continue;
      }
      VersionedSet owned = entry.getValue();
      Optional<Comparison> atVersion =
          byVersion.computeIfAbsent(owned.apiVersion(), v -> compareAt(oldObject, newObject, v));
      if (atVersion.isEmpty()) {
        managers.remove(manager);
        continue;
      }
      Comparison c = atVersion.get();
      FieldSet conflicting = owned.set().intersection(c.modified().union(c.added()));
      if (!conflicting.isEmpty()) {
        conflicts.put(manager, conflicting);
      }
      if (!c.removed().isEmpty()) {
        removed.put(manager, c.removed());
      }
    }
    if (!force && !conflicts.isEmpty()) {
      throw new ConflictException(conflictsOf(conflicts));
    }
    conflicts.forEach(
        (manager, set) ->
            managers.computeIfPresent(manager, (m, v) -> v.withSet(v.set().difference(set))));
    removed.forEach(
        (manager, set) ->
            managers.computeIfPresent(manager, (m, v) -> v.withSet(v.set().difference(set))));
    managers.entrySet().removeIf(e -> !e.getKey().equals(writer) && e.getValue().set().isEmpty());
    return compare;
  }

  /**
   * Lists the conflicts with each manager's fields, as structured-merge-diff's {@code
   * ConflictsFromManagers} does: by manager in name order, then in the order of the manager's set.
   */
  static List<Conflict> conflictsOf(Map<String, FieldSet> byManager) {
    List<Conflict> list = new ArrayList<>();
    new TreeMap<>(byManager)
        .forEach((manager, set) -> set.forEach(p -> list.add(new Conflict(manager, p))));
    return list;
  }

  private Optional<Comparison> compareAt(
      TypedValue oldObject, TypedValue newObject, String version) {
    Optional<TypedValue> oldAt = converter.convert(oldObject, version);
    Optional<TypedValue> newAt = converter.convert(newObject, version);
    if (oldAt.isEmpty() || newAt.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(filtered(oldAt.get(), newAt.get(), version));
  }

  private Comparison filtered(TypedValue oldObject, TypedValue newObject, String version) {
    Comparison c = oldObject.type().compare(oldObject.value(), newObject.value());
    FieldSet ignored = ignoredFields.apply(version);
    if (ignored == null) {
      return c;
    }
    return new Comparison(
        c.added().recursiveDifference(ignored),
        c.modified().recursiveDifference(ignored),
        c.removed().recursiveDifference(ignored));
  }

  /**
   * Removes what the applier applied last time and no longer applies, unless another manager owns
   * it, as structured-merge-diff's {@code prune}.
   */
  private TypedValue prune(
      TypedValue merged, Map<String, VersionedSet> managers, String applier, VersionedSet lastSet) {
    if (lastSet == null || lastSet.set().isEmpty()) {
      return merged;
    }
    String version = lastSet.apiVersion();
    Optional<TypedValue> converted = converter.convert(merged, version);
    if (converted.isEmpty()) {
      // The version the applier last applied in is gone: what it held cannot be told any more.
      return merged;
    }
    TypedValue atLast = converted.get();
    SchemaType type = atLast.type();
    TypedValue pruned =
        atLast.with(type.removeItems(atLast.value(), type.withNamedFieldsAsMembers(lastSet.set())));
    pruned = addBackOwned(atLast, pruned, version, managers);
    pruned = addBackDangling(atLast, pruned, lastSet);
    return convert(pruned, managers.get(applier).apiVersion());
  }

  /** Puts back what any manager owns, version by version, the pruned version first. */
  private TypedValue addBackOwned(
      TypedValue merged,
      TypedValue pruned,
      String prunedVersion,
      Map<String, VersionedSet> managers) {
    Map<String, FieldSet> owned = new TreeMap<>();
    for (VersionedSet set : managers.values()) {
      owned.merge(set.apiVersion(), set.set(), FieldSet::union);
    }
    List<String> order = new ArrayList<>();
    if (owned.containsKey(prunedVersion)) {
      order.add(prunedVersion);
    }
    owned.keySet().stream().filter(v -> !v.equals(prunedVersion)).forEach(order::add);
    TypedValue m = merged;
    TypedValue p = pruned;
    for (String version : order) {
      m = convert(m, version);
      p = convert(p, version);
      SchemaType type = m.type();
      FieldSet mergedSet = type.withNamedFieldsAsMembers(type.toFieldSet(m.value(), true));
      FieldSet prunedSet = type.withNamedFieldsAsMembers(type.toFieldSet(p.value(), true));
      FieldSet keep = prunedSet.union(type.withNamedFieldsAsMembers(owned.get(version)));
      p = m.with(type.removeItems(m.value(), mergedSet.difference(keep)));
    }
    return p;
  }

  /**
   * Removes again what the applier applied last time that an add-back restored only because it
   * could not be told apart (an empty struct, say), as structured-merge-diff's {@code
   * addBackDanglingItems}.
   */
  private TypedValue addBackDangling(TypedValue merged, TypedValue pruned, VersionedSet lastSet) {
    TypedValue prunedAtLast = convert(pruned, lastSet.apiVersion());
    SchemaType type = merged.type();
    FieldSet prunedSet = type.withNamedFieldsAsMembers(type.toFieldSet(prunedAtLast.value(), true));
    FieldSet mergedSet = type.withNamedFieldsAsMembers(type.toFieldSet(merged.value(), true));
    FieldSet last = type.withNamedFieldsAsMembers(lastSet.set());
    return merged.with(
        type.removeItems(merged.value(), mergedSet.difference(prunedSet).intersection(last)));
  }

  /** Converts to a version some manager's fields are in; one the kind lacks leaves it as it is. */
  private TypedValue convert(TypedValue value, String version) {
    return converter.convert(value, version).orElse(value);
  }
}
