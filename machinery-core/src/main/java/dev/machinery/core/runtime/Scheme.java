package dev.machinery.core.runtime;

import static dev.machinery.core.internal.Text.quote;

import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.VersionPriority;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The registry of API types: which Java type serves each group/version/kind, the internal version
 * of each group, the unversioned types, the defaulting functions and the order of preference of
 * each group's versions.
 *
 * <p>A scheme is assembled by a {@link Builder}, which reports every conflict at {@link
 * Builder#build()}, and is immutable afterwards: every method may be called from any number of
 * threads at once without locking.
 *
 * <pre>{@code
 * Scheme scheme = Scheme.builder()
 *     .addKnownTypes(GroupVersion.of("apps", "v1"), Deployment.class, DeploymentList.class)
 *     .addKnownTypes(GroupVersion.of("apps", "v1beta1"), DeploymentV1beta1.class)
 *     .setVersionPriority(GroupVersion.of("apps", "v1"), GroupVersion.of("apps", "v1beta1"))
 *     .build();
 * ApiObject fresh = scheme.newObject(GroupVersionKind.of("apps", "v1", "Deployment"));
 * }</pre>
 */
public final class Scheme {
  private final Map<GroupVersionKind, Class<? extends ApiObject>> typesByKind;
  private final Map<Class<?>, List<GroupVersionKind>> kindsByType;
  private final Map<String, Class<? extends ApiObject>> unversionedKinds;
  private final Set<Class<?>> unversionedTypes;
  private final Map<GroupVersion, Map<String, Class<? extends ApiObject>>> typesByVersion;
  private final Map<String, List<GroupVersion>> versionsByGroup;
  private final Map<Class<?>, List<Consumer<Object>>> defaulters;
  private final Map<Class<?>, Constructor<?>> constructors;

  private Scheme(
      Map<GroupVersionKind, Class<? extends ApiObject>> typesByKind,
      Map<Class<?>, List<GroupVersionKind>> kindsByType,
      Map<String, Class<? extends ApiObject>> unversionedKinds,
      Map<String, List<GroupVersion>> versionsByGroup,
      Map<Class<?>, List<Consumer<Object>>> defaulters,
      Map<Class<?>, Constructor<?>> constructors) {
    this.typesByKind = Collections.unmodifiableMap(typesByKind);
    this.kindsByType = Collections.unmodifiableMap(kindsByType);
    this.unversionedKinds = Collections.unmodifiableMap(unversionedKinds);
    this.unversionedTypes = Set.copyOf(unversionedKinds.values());
    this.versionsByGroup = Collections.unmodifiableMap(versionsByGroup);
    this.defaulters = Map.copyOf(defaulters);
    this.constructors = Map.copyOf(constructors);
    Map<GroupVersion, Map<String, Class<? extends ApiObject>>> byVersion = new LinkedHashMap<>();
    typesByKind.forEach(
        (gvk, type) ->
            byVersion
                .computeIfAbsent(gvk.groupVersion(), gv -> new LinkedHashMap<>())
                .put(gvk.kind(), type));
    byVersion.replaceAll((gv, kinds) -> Collections.unmodifiableMap(kinds));
    this.typesByVersion = Collections.unmodifiableMap(byVersion);
  }

  /**
   * Returns a new, empty builder.
   *
   * @return the builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns whether the scheme can create and decode objects of this kind: the kind is registered,
   * or it is an unversioned kind asked for in a registered group version.
   *
   * @param kind the kind
   * @return true if recognised
   */
  public boolean recognizes(GroupVersionKind kind) {
    return typeFor(kind).isPresent();
  }

  /**
   * Returns the Java type registered for a kind (or the unversioned type of that kind name, when
   * the group version is registered).
   *
   * @param kind the kind
   * @return the type, or empty if the kind is not recognised
   */
  public Optional<Class<? extends ApiObject>> typeFor(GroupVersionKind kind) {
    Class<? extends ApiObject> type = typesByKind.get(kind);
    if (type == null && typesByVersion.containsKey(kind.groupVersion())) {
      type = unversionedKinds.get(kind.kind());
    }
    return Optional.ofNullable(type);
  }

  /**
   * Creates an empty object of a kind, with its {@code apiVersion} and {@code kind} set.
   *
   * @param kind the kind
   * @return a new object
   * @throws NotRegisteredException if the kind is not recognised; the message names what is
   *     registered nearby
   */
  public ApiObject newObject(GroupVersionKind kind) {
    Class<? extends ApiObject> type = typeFor(kind).orElseThrow(() -> notRegistered(kind));
    ApiObject object = instantiate(type);
    object.setApiVersion(kind.apiVersion());
    object.setKind(kind.kind());
    return object;
  }

  /**
   * Returns every kind a Java type is registered under, in registration order.
   *
   * @param type the type
   * @return the kinds; empty if the type is not registered
   */
  public List<GroupVersionKind> kindsFor(Class<?> type) {
    return kindsByType.getOrDefault(type, List.of());
  }

  /**
   * Returns the one kind an object is encoded as: the only kind its type is registered under, or,
   * when there are several, the one its {@code apiVersion} and {@code kind} name.
   *
   * @param object the object
   * @return the kind
   * @throws NotRegisteredException if the object's type is not registered
   * @throws AmbiguousKindException if the type has several kinds and the object names none of them
   */
  public GroupVersionKind kindFor(ApiObject object) {
    Class<?> type = object.getClass();
    List<GroupVersionKind> kinds = kindsFor(type);
    if (kinds.isEmpty()) {
      throw notRegistered(type);
    }
    if (kinds.size() == 1 && !unversionedTypes.contains(type)) {
      return kinds.get(0);
    }
    String apiVersion = object.getApiVersion();
    String kind = object.getKind();
    if (apiVersion != null && kind != null) {
      for (GroupVersionKind candidate : kinds) {
        if (candidate.kind().equals(kind) && candidate.apiVersion().equals(apiVersion)) {
          return candidate;
        }
      }
      if (unversionedTypes.contains(type) && !apiVersion.isEmpty()) {
        GroupVersionKind named = GroupVersionKind.fromApiVersionAndKind(apiVersion, kind);
        if (typeFor(named).orElse(null) == type) {
          return named;
        }
      }
    }
    if (kinds.size() == 1) {
      return kinds.get(0);
    }
    throw new AmbiguousKindException(
        type,
        kinds,
        "type "
            + type.getName()
            + " is registered as "
            + kinds.size()
            + " kinds and the object's apiVersion "
            + quote(apiVersion)
            + " and kind "
            + quote(kind)
            + " name none of them; set them to one of: "
            + kinds.stream().map(GroupVersionKind::toString).collect(Collectors.joining("; ")));
  }

  /**
   * Returns whether a type is unversioned: registered once and valid in every group version.
   *
   * @param type the type
   * @return true if unversioned
   */
  public boolean isUnversioned(Class<?> type) {
    return unversionedTypes.contains(type);
  }

  /**
   * Returns the registered external versions of a group, most preferred first: the versions of
   * {@link Builder#setVersionPriority} in the order given, then the rest in {@link VersionPriority}
   * order. Internal versions are not included.
   *
   * @param group the group
   * @return the versions; empty for an unknown group
   */
  public List<GroupVersion> prioritizedVersionsForGroup(String group) {
    return versionsByGroup.getOrDefault(group, List.of());
  }

  /**
   * Returns the preferred external version of a group.
   *
   * @param group the group
   * @return the most preferred version, or empty for a group with no external version
   */
  public Optional<GroupVersion> preferredVersion(String group) {
    List<GroupVersion> versions = prioritizedVersionsForGroup(group);
    return versions.isEmpty() ? Optional.empty() : Optional.of(versions.get(0));
  }

  /**
   * Returns the external versions of every group: groups in registration order, each group's
   * versions most preferred first.
   *
   * @return the versions
   */
  public List<GroupVersion> prioritizedVersionsAllGroups() {
    List<GroupVersion> all = new ArrayList<>();
    versionsByGroup.values().forEach(all::addAll);
    return Collections.unmodifiableList(all);
  }

  /**
   * Returns every group with registered types, in registration order.
   *
   * @return the group names ({@code ""} is the legacy core group)
   */
  public Set<String> groups() {
    Set<String> groups = new LinkedHashSet<>();
    typesByVersion.keySet().forEach(gv -> groups.add(gv.group()));
    return Collections.unmodifiableSet(groups);
  }

  /**
   * Returns whether any type is registered in a group version (external or internal).
   *
   * @param version the group version
   * @return true if registered
   */
  public boolean isVersionRegistered(GroupVersion version) {
    return typesByVersion.containsKey(version);
  }

  /**
   * Returns the kinds of one group version and their types, in registration order.
   *
   * @param version the group version
   * @return kind name to type; empty if the version is not registered
   */
  public Map<String, Class<? extends ApiObject>> knownTypes(GroupVersion version) {
    return typesByVersion.getOrDefault(version, Map.of());
  }

  /**
   * Returns every registered kind and its type, in registration order, internal versions included.
   *
   * @return kind to type
   */
  public Map<GroupVersionKind, Class<? extends ApiObject>> allKnownTypes() {
    return typesByKind;
  }

  /**
   * Applies the defaulting functions registered for the object's exact type, in registration order.
   * Objects of a type with no defaulting function are left unchanged.
   *
   * @param object the object to default in place
   */
  public void applyDefaults(ApiObject object) {
    List<Consumer<Object>> functions = defaulters.get(object.getClass());
    if (functions != null) {
      for (Consumer<Object> function : functions) {
        function.accept(object);
      }
    }
  }

  /**
   * Returns whether defaulting functions are registered for a type.
   *
   * @param type the type
   * @return true if {@link #applyDefaults} would change objects of this type
   */
  public boolean hasDefaults(Class<?> type) {
    return defaulters.containsKey(type);
  }

  /**
   * Returns the exception for a kind that is not recognised, naming what is registered nearby.
   *
   * @param kind the kind
   * @return the exception, to throw
   */
  public NotRegisteredException notRegistered(GroupVersionKind kind) {
    StringBuilder message =
        new StringBuilder("no kind ")
            .append(quote(kind.kind()))
            .append(" is registered for version ")
            .append(quote(kind.apiVersion()));
    Map<String, Class<? extends ApiObject>> sameVersion = typesByVersion.get(kind.groupVersion());
    if (sameVersion != null) {
      Set<String> names = new TreeSet<>(sameVersion.keySet());
      names.addAll(unversionedKinds.keySet());
      names.stream()
          .filter(name -> name.equalsIgnoreCase(kind.kind()))
          .findFirst()
          .ifPresent(name -> message.append("; did you mean ").append(quote(name)).append('?'));
      message.append("; kinds registered for ").append(kind.apiVersion()).append(": ");
      message.append(String.join(", ", names));
    } else if (versionsByGroup.containsKey(kind.group()) || hasInternal(kind.group())) {
      message
          .append("; version ")
          .append(quote(kind.version()))
          .append(" of group ")
          .append(quote(kind.group()))
          .append(" is not registered; registered versions: ")
          .append(
              prioritizedVersionsForGroup(kind.group()).stream()
                  .map(GroupVersion::version)
                  .collect(Collectors.joining(", ")));
    } else {
      message
          .append("; group ")
          .append(quote(kind.group()))
          .append(" is not registered; registered groups: ")
          .append(groups().stream().map(g -> quote(g)).collect(Collectors.joining(", ")));
    }
    return new NotRegisteredException(kind, message.toString());
  }

  private boolean hasInternal(String group) {
    return typesByVersion.containsKey(GroupVersion.internal(group));
  }

  private static NotRegisteredException notRegistered(Class<?> type) {
    return new NotRegisteredException(
        type, "type " + type.getName() + " is not registered in the scheme");
  }

  private ApiObject instantiate(Class<? extends ApiObject> type) {
    try {
      return (ApiObject) constructors.get(type).newInstance();
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new IllegalStateException("constructor of " + type.getName() + " failed", cause);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("constructor of " + type.getName() + " failed", e);
    }
  }

  /**
   * Collects registrations for a {@link Scheme}. Every method returns the builder; {@link #build()}
   * checks them all and reports every conflict in one {@link SchemeBuildException}.
   *
   * <p>Not thread-safe: confine a builder to one thread.
   */
  public static final class Builder {
    private final List<GroupVersionKind> kinds = new ArrayList<>();
    private final List<Class<? extends ApiObject>> types = new ArrayList<>();
    private final Map<Class<?>, GroupVersion> unversioned = new LinkedHashMap<>();
    private final List<List<GroupVersion>> priorities = new ArrayList<>();
    private final Map<Class<?>, List<Consumer<Object>>> defaulters = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();
    private boolean requireInternalVersions;

    private Builder() {}

    /**
     * Registers types in a group version, each under its simple class name as kind.
     *
     * @param version the group version
     * @param types the types
     * @return this builder
     */
    @SafeVarargs
    public final Builder addKnownTypes(GroupVersion version, Class<? extends ApiObject>... types) {
      Objects.requireNonNull(version, "version");
      for (Class<? extends ApiObject> type : types) {
        addKnownType(version.withKind(type.getSimpleName()), type);
      }
      return this;
    }

    /**
     * Registers a type under an explicit kind. The same type may be registered under several kinds;
     * one kind may not name two types.
     *
     * @param kind the kind; group may be empty, version and kind may not
     * @param type the type
     * @return this builder
     */
    public Builder addKnownType(GroupVersionKind kind, Class<? extends ApiObject> type) {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(type, "type");
      if (kind.version().isEmpty() || kind.kind().isEmpty()) {
        problems.add(
            "kind \"" + kind + "\" of " + type.getName() + " must name a version and a kind");
        return this;
      }
      kinds.add(kind);
      types.add(type);
      return this;
    }

    /**
     * Registers types as the internal form of a group (version {@value
     * GroupVersion#INTERNAL_VERSION}), the hub that conversions pass through.
     *
     * @param group the group
     * @param types the internal types, each under its simple class name
     * @return this builder
     */
    @SafeVarargs
    public final Builder addInternalTypes(String group, Class<? extends ApiObject>... types) {
      return addKnownTypes(GroupVersion.internal(group), types);
    }

    /**
     * Registers unversioned types: registered once in {@code version}, and recognised under their
     * kind name in every registered group version (as Kubernetes' {@code Status}).
     *
     * @param version the group version they are registered in
     * @param types the types, each under its simple class name
     * @return this builder
     */
    @SafeVarargs
    public final Builder addUnversionedTypes(
        GroupVersion version, Class<? extends ApiObject>... types) {
      addKnownTypes(version, types);
      for (Class<? extends ApiObject> type : types) {
        unversioned.put(type, version);
      }
      return this;
    }

    /**
     * Registers a defaulting function for objects of exactly this type.
     *
     * @param type the type
     * @param function sets the defaults in place
     * @param <T> the type
     * @return this builder
     */
    @SuppressWarnings("unchecked")
    public <T extends ApiObject> Builder addDefaultingFunction(
        Class<T> type, Consumer<? super T> function) {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(function, "function");
      defaulters.computeIfAbsent(type, t -> new ArrayList<>()).add((Consumer<Object>) function);
      return this;
    }

    /**
     * Sets the order of preference of a group's versions, most preferred first. All versions must
     * be of one group and registered; versions left out follow in {@link VersionPriority} order.
     *
     * @param versions the versions, most preferred first
     * @return this builder
     */
    public Builder setVersionPriority(GroupVersion... versions) {
      priorities.add(List.of(versions));
      return this;
    }

    /**
     * Declares that objects will be converted through internal versions, so that {@link #build()}
     * reports any group with external versions but no internal version, and any external kind with
     * no internal counterpart.
     *
     * @return this builder
     */
    public Builder requireInternalVersions() {
      this.requireInternalVersions = true;
      return this;
    }

    /**
     * Checks every registration and builds the immutable scheme.
     *
     * @return the scheme
     * @throws SchemeBuildException with every conflict found
     */
    public Scheme build() {
      List<String> found = new ArrayList<>(problems);
      Map<GroupVersionKind, Class<? extends ApiObject>> typesByKind = new LinkedHashMap<>();
      Map<Class<?>, List<GroupVersionKind>> kindsByType = new LinkedHashMap<>();
      Map<Class<?>, Constructor<?>> constructors = new LinkedHashMap<>();
      for (int i = 0; i < kinds.size(); i++) {
        GroupVersionKind kind = kinds.get(i);
        Class<? extends ApiObject> type = types.get(i);
        Class<? extends ApiObject> previous = typesByKind.putIfAbsent(kind, type);
        if (previous != null && previous != type) {
          found.add(
              "kind \""
                  + kind
                  + "\" is registered to both "
                  + previous.getName()
                  + " and "
                  + type.getName());
          continue;
        }
        List<GroupVersionKind> ofType = kindsByType.computeIfAbsent(type, t -> new ArrayList<>());
        if (!ofType.contains(kind)) {
          ofType.add(kind);
        }
        if (!constructors.containsKey(type)) {
          constructorFor(type, found).ifPresent(handle -> constructors.put(type, handle));
        }
      }
      kindsByType.replaceAll((type, list) -> List.copyOf(list));

      Map<String, Class<? extends ApiObject>> unversionedKinds = new LinkedHashMap<>();
      unversioned.forEach(
          (type, version) -> {
            @SuppressWarnings("unchecked")
            Class<? extends ApiObject> apiType = (Class<? extends ApiObject>) type;
            Class<? extends ApiObject> previous =
                unversionedKinds.putIfAbsent(type.getSimpleName(), apiType);
            if (previous != null && previous != type) {
              found.add(
                  "unversioned kind \""
                      + type.getSimpleName()
                      + "\" is registered to both "
                      + previous.getName()
                      + " and "
                      + type.getName());
            }
          });

      Map<String, Set<String>> externalVersions = new LinkedHashMap<>();
      Set<String> internalGroups = new LinkedHashSet<>();
      for (GroupVersionKind kind : typesByKind.keySet()) {
        if (kind.groupVersion().isInternal()) {
          internalGroups.add(kind.group());
        } else {
          externalVersions
              .computeIfAbsent(kind.group(), g -> new LinkedHashSet<>())
              .add(kind.version());
        }
      }

      Map<String, List<GroupVersion>> versionsByGroup = new LinkedHashMap<>();
      Set<String> prioritised = new LinkedHashSet<>();
      for (List<GroupVersion> priority : priorities) {
        checkPriority(priority, externalVersions, prioritised, found)
            .ifPresent(group -> versionsByGroup.put(group, new ArrayList<>(priority)));
      }
      externalVersions.forEach(
          (group, versions) -> {
            List<GroupVersion> ordered =
                versionsByGroup.computeIfAbsent(group, g -> new ArrayList<>());
            versions.stream()
                .sorted(VersionPriority.MOST_PREFERRED_FIRST)
                .map(v -> GroupVersion.of(group, v))
                .filter(gv -> !ordered.contains(gv))
                .forEach(ordered::add);
          });
      Map<String, List<GroupVersion>> orderedGroups = new LinkedHashMap<>();
      externalVersions
          .keySet()
          .forEach(g -> orderedGroups.put(g, List.copyOf(versionsByGroup.get(g))));

      defaulters.keySet().stream()
          .filter(type -> !kindsByType.containsKey(type))
          .forEach(
              type ->
                  found.add(
                      "a defaulting function is registered for "
                          + type.getName()
                          + ", which is not a registered type"));

      if (requireInternalVersions) {
        checkInternalVersions(typesByKind, externalVersions, internalGroups, found);
      }
      if (!found.isEmpty()) {
        throw new SchemeBuildException(found);
      }
      Map<Class<?>, List<Consumer<Object>>> frozenDefaulters = new LinkedHashMap<>();
      defaulters.forEach((type, list) -> frozenDefaulters.put(type, List.copyOf(list)));
      return new Scheme(
          typesByKind,
          kindsByType,
          unversionedKinds,
          orderedGroups,
          frozenDefaulters,
          constructors);
    }

    private void checkInternalVersions(
        Map<GroupVersionKind, Class<? extends ApiObject>> typesByKind,
        Map<String, Set<String>> externalVersions,
        Set<String> internalGroups,
        List<String> found) {
      for (String group : externalVersions.keySet()) {
        if (!internalGroups.contains(group)) {
          found.add(
              "group "
                  + quote(group)
                  + " has external versions ("
                  + String.join(", ", externalVersions.get(group))
                  + ") but no internal version to convert through; register its internal types"
                  + " with addInternalTypes");
          continue;
        }
        for (Map.Entry<GroupVersionKind, Class<? extends ApiObject>> entry :
            typesByKind.entrySet()) {
          GroupVersionKind kind = entry.getKey();
          if (kind.group().equals(group)
              && !kind.groupVersion().isInternal()
              && !unversioned.containsKey(entry.getValue())
              && !typesByKind.containsKey(GroupVersion.internal(group).withKind(kind.kind()))) {
            found.add(
                "kind \""
                    + kind
                    + "\" has no internal counterpart \""
                    + GroupVersion.internal(group).withKind(kind.kind())
                    + "\"");
          }
        }
      }
    }

    private static Optional<String> checkPriority(
        List<GroupVersion> priority,
        Map<String, Set<String>> externalVersions,
        Set<String> prioritised,
        List<String> found) {
      if (priority.isEmpty()) {
        found.add("setVersionPriority was called with no versions");
        return Optional.empty();
      }
      String group = priority.get(0).group();
      int before = found.size();
      Set<GroupVersion> seen = new LinkedHashSet<>();
      for (GroupVersion version : priority) {
        if (!version.group().equals(group)) {
          found.add(
              "version priority "
                  + priority
                  + " mixes groups "
                  + quote(group)
                  + " and "
                  + quote(version.group()));
        } else if (!seen.add(version)) {
          found.add("version priority " + priority + " names " + version + " twice");
        } else if (version.isInternal()) {
          found.add("version priority " + priority + " names the internal version " + version);
        } else if (!externalVersions.getOrDefault(group, Set.of()).contains(version.version())) {
          found.add(
              "version priority names "
                  + quote(version.toString())
                  + ", which has no registered types; registered versions of group "
                  + quote(group)
                  + ": "
                  + String.join(", ", externalVersions.getOrDefault(group, Set.of())));
        }
      }
      if (!prioritised.add(group)) {
        found.add("version priority of group " + quote(group) + " is set more than once");
      }
      return found.size() == before ? Optional.of(group) : Optional.empty();
    }

    private static Optional<Constructor<?>> constructorFor(Class<?> type, List<String> found) {
      if (type.isInterface()
          || Modifier.isAbstract(type.getModifiers())
          || !Modifier.isPublic(type.getModifiers())) {
        found.add(type.getName() + " must be a public, concrete class");
        return Optional.empty();
      }
      try {
        Constructor<?> constructor = type.getConstructor();
        if (!constructor.canAccess(null)) {
          found.add(
              type.getName()
                  + " is not accessible to module dev.machinery.core; export its package to it");
          return Optional.empty();
        }
        return Optional.of(constructor);
      } catch (NoSuchMethodException e) {
        found.add(type.getName() + " has no public no-argument constructor");
        return Optional.empty();
      }
    }
  }
}
