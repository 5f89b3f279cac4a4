package dev.machinery.core.runtime;

import static dev.machinery.core.internal.Text.quote;

import dev.machinery.conversion.ConversionException;
import dev.machinery.conversion.ConversionFunction;
import dev.machinery.conversion.ConversionRegistration;
import dev.machinery.conversion.Converter;
import dev.machinery.conversion.ConverterBuildException;
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
 * <p>A kind is any public class with a public no-argument constructor that carries its {@code
 * apiVersion} and {@code kind}: the library's {@link ApiObject}, or a model written elsewhere with
 * public accessors for both (see {@link TypeAccessor}), such as fabric8's.
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
 * Object fresh = scheme.newObject(GroupVersionKind.of("apps", "v1", "Deployment"));
 * }</pre>
 */
public final class Scheme {
  private final Map<GroupVersionKind, Class<?>> typesByKind;
  private final Map<Class<?>, List<GroupVersionKind>> kindsByType;
  private final Map<String, Class<?>> unversionedKinds;
  private final Set<Class<?>> unversionedTypes;
  private final Map<GroupVersion, Map<String, Class<?>>> typesByVersion;
  private final Map<String, List<GroupVersion>> versionsByGroup;
  private final Map<Class<?>, List<Consumer<Object>>> defaulters;
  private final Map<Class<?>, Constructor<?>> constructors;
  private final Converter converter;
  private final Map<GroupVersionKind, FieldLabelConversion> fieldLabels;

  private Scheme(
      Map<GroupVersionKind, Class<?>> typesByKind,
      Map<Class<?>, List<GroupVersionKind>> kindsByType,
      Map<String, Class<?>> unversionedKinds,
      Map<String, List<GroupVersion>> versionsByGroup,
      Map<Class<?>, List<Consumer<Object>>> defaulters,
      Map<Class<?>, Constructor<?>> constructors,
      Converter converter,
      Map<GroupVersionKind, FieldLabelConversion> fieldLabels) {
    this.converter = converter;
    this.fieldLabels = Map.copyOf(fieldLabels);
    this.typesByKind = Collections.unmodifiableMap(typesByKind);
    this.kindsByType = Collections.unmodifiableMap(kindsByType);
    this.unversionedKinds = Collections.unmodifiableMap(unversionedKinds);
    this.unversionedTypes = Set.copyOf(unversionedKinds.values());
    this.versionsByGroup = Collections.unmodifiableMap(versionsByGroup);
    this.defaulters = Map.copyOf(defaulters);
    this.constructors = Map.copyOf(constructors);
    Map<GroupVersion, Map<String, Class<?>>> byVersion = new LinkedHashMap<>();
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
  public Optional<Class<?>> typeFor(GroupVersionKind kind) {
    Class<?> type = typesByKind.get(kind);
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
  public Object newObject(GroupVersionKind kind) {
    Class<?> type = typeFor(kind).orElseThrow(() -> notRegistered(kind));
    Object object = instantiate(type);
    TypeAccessor accessor = TypeAccessor.of(type);
    accessor.setApiVersion(object, kind.apiVersion());
    accessor.setKind(object, kind.kind());
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
  public GroupVersionKind kindFor(Object object) {
    Class<?> type = object.getClass();
    List<GroupVersionKind> kinds = kindsFor(type);
    if (kinds.isEmpty()) {
      throw notRegistered(type);
    }
    if (kinds.size() == 1 && !unversionedTypes.contains(type)) {
      return kinds.get(0);
    }
    TypeAccessor accessor = TypeAccessor.of(type);
    String apiVersion = accessor.apiVersion(object);
    String kind = accessor.kind(object);
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
  public Map<String, Class<?>> knownTypes(GroupVersion version) {
    return typesByVersion.getOrDefault(version, Map.of());
  }

  /**
   * Returns every registered kind and its type, in registration order, internal versions included.
   *
   * @return kind to type
   */
  public Map<GroupVersionKind, Class<?>> allKnownTypes() {
    return typesByKind;
  }

  /**
   * Applies the defaulting functions registered for the object's exact type, in registration order.
   * Objects of a type with no defaulting function are left unchanged.
   *
   * @param object the object to default in place
   */
  public void applyDefaults(Object object) {
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
   * Returns the converter that holds the scheme's conversion and deep-copy functions.
   *
   * @return the converter
   */
  public Converter converter() {
    return converter;
  }

  /**
   * Returns the versioner that targets the preferred external version of each group.
   *
   * @return the versioner
   */
  public GroupVersioner preferredVersions() {
    return new GroupVersioner() {
      @Override
      public Optional<GroupVersionKind> kindForGroupVersionKinds(List<GroupVersionKind> kinds) {
        for (GroupVersionKind kind : kinds) {
          Optional<GroupVersion> preferred = preferredVersion(kind.group());
          if (preferred.isPresent()) {
            return Optional.of(preferred.get().withKind(kind.kind()));
          }
        }
        return Optional.empty();
      }

      @Override
      public String toString() {
        return "the preferred version of each group";
      }
    };
  }

  /**
   * Converts an object into a new object of another class, through the internal form: a versioned
   * object is defaulted (on a copy; the input is never changed), converted to the internal class of
   * its kind, then to {@code target}. An object of class {@code target} is deep-copied.
   *
   * @param in the object
   * @param target the class wanted
   * @param <T> the class wanted
   * @return the new object, sharing no mutable state with {@code in}
   * @throws dev.machinery.conversion.NoConversionException if a step has no conversion function
   * @throws ConversionException if a value cannot be converted; the path names the field
   * @throws NotRegisteredException if a conversion between API classes is asked for and the input's
   *     kind has no internal version
   */
  public <T> T convert(Object in, Class<T> target) {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(target, "target");
    if (in.getClass() == target) {
      return target.cast(converter.deepCopy(in));
    }
    List<GroupVersionKind> sourceKinds = kindsFor(in.getClass());
    List<GroupVersionKind> targetKinds = kindsFor(target);
    T out;
    if (sourceKinds.isEmpty()
        || targetKinds.isEmpty()
        || isInternal(sourceKinds)
        || isInternal(targetKinds)) {
      out = converter.convert(defaulted(in), target);
    } else {
      GroupVersionKind source = kindFor(in);
      Class<?> hub = hubType(source);
      out = converter.convert(converter.convert(defaulted(in), hub), target);
    }
    if (targetKinds.size() == 1) {
      withKind(out, targetKinds.get(0));
    }
    return out;
  }

  /**
   * Converts an object into the kind a versioner chooses, always through the internal form:
   * versioned → internal → versioned. The source is defaulted first (on a copy; the input is never
   * changed). The result has its {@code apiVersion} and {@code kind} set to the target kind (both
   * {@code null} for an internal object). An object already of the target kind is deep-copied; an
   * unversioned object is returned as it is.
   *
   * @param in the object
   * @param target chooses the target version
   * @return the converted object, sharing no mutable state with {@code in}
   * @throws NotRegisteredException if the object's type, or the target kind, is not registered
   * @throws ConversionException if the versioner finds no target for the object's kinds, a step has
   *     no conversion function, or a value cannot be converted
   */
  public Object convertToVersion(Object in, GroupVersioner target) {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(target, "target");
    Class<?> type = in.getClass();
    List<GroupVersionKind> kinds = kindsFor(type);
    if (kinds.isEmpty()) {
      throw notRegistered(type);
    }
    if (unversionedTypes.contains(type)) {
      return in;
    }
    boolean internalSource = isInternal(kinds);
    GroupVersionKind source = internalSource ? kinds.get(0) : kindFor(in);
    Class<?> hub;
    List<GroupVersionKind> hubKinds;
    if (internalSource) {
      hub = type;
      hubKinds = kinds;
    } else {
      Optional<GroupVersionKind> direct = target.kindForGroupVersionKinds(kinds);
      if (direct.isPresent() && typeFor(direct.get()).orElse(null) == type) {
        return withKind(converter.deepCopy(in), direct.get());
      }
      hub = hubType(source);
      hubKinds = sourceGroupFirst(kindsFor(hub), source.group());
    }
    GroupVersionKind wanted =
        target
            .kindForGroupVersionKinds(hubKinds)
            .orElseThrow(
                () ->
                    new ConversionException(
                        "\""
                            + source
                            + "\" cannot be converted to "
                            + target
                            + ": its internal form is registered for "
                            + hubKinds.stream()
                                .map(kind -> quote(kind.group()))
                                .collect(Collectors.joining(", "))
                            + " only"));
    Class<?> targetType = typeFor(wanted).orElseThrow(() -> notRegistered(wanted));
    Object internal = internalSource ? in : converter.convert(defaulted(in), hub);
    Object out;
    if (targetType == hub) {
      out = internalSource ? converter.deepCopy(in) : internal;
    } else {
      out = converter.convert(internal, targetType);
    }
    return withKind(out, wanted);
  }

  /** Orders a shared internal type's kinds so that the source's group is chosen first. */
  private static List<GroupVersionKind> sourceGroupFirst(
      List<GroupVersionKind> kinds, String group) {
    if (kinds.size() == 1 || kinds.get(0).group().equals(group)) {
      return kinds;
    }
    List<GroupVersionKind> ordered = new ArrayList<>(kinds.size());
    kinds.stream().filter(kind -> kind.group().equals(group)).forEach(ordered::add);
    kinds.stream().filter(kind -> !kind.group().equals(group)).forEach(ordered::add);
    return ordered;
  }

  private static <T> T withKind(T out, GroupVersionKind kind) {
    TypeAccessor accessor = TypeAccessor.of(out);
    if (kind.version().equals(GroupVersion.INTERNAL_VERSION)) {
      accessor.setApiVersion(out, null);
      accessor.setKind(out, null);
    } else {
      accessor.setApiVersion(out, kind.apiVersion());
      accessor.setKind(out, kind.kind());
    }
    return out;
  }

  /**
   * Converts a field selector's label and value for a kind into the internal vocabulary, with the
   * kind's {@link FieldLabelConversion}; without one, only {@code metadata.name} and {@code
   * metadata.namespace} are supported.
   *
   * @param kind the versioned kind the selector was written for
   * @param label the label
   * @param value the value
   * @return the internal label and value
   * @throws NotRegisteredException if the kind is not registered
   * @throws FieldLabelNotSupportedException if the kind does not support the label
   */
  public FieldLabel convertFieldLabel(GroupVersionKind kind, String label, String value) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(value, "value");
    if (!recognizes(kind)) {
      throw notRegistered(kind);
    }
    FieldLabelConversion conversion = fieldLabels.get(kind);
    Optional<FieldLabel> converted =
        conversion != null
            ? conversion.convert(label, value)
            : label.equals("metadata.name") || label.equals("metadata.namespace")
                ? Optional.of(new FieldLabel(label, value))
                : Optional.empty();
    return converted.orElseThrow(
        () ->
            new FieldLabelNotSupportedException(
                kind,
                label,
                "field label " + quote(label) + " is not supported for \"" + kind + "\""));
  }

  private static boolean isInternal(List<GroupVersionKind> kinds) {
    for (GroupVersionKind kind : kinds) {
      if (kind.version().equals(GroupVersion.INTERNAL_VERSION)) {
        return true;
      }
    }
    return false;
  }

  private Class<?> hubType(GroupVersionKind source) {
    GroupVersionKind internal =
        GroupVersionKind.of(source.group(), GroupVersion.INTERNAL_VERSION, source.kind());
    Class<?> hub = typesByKind.get(internal);
    if (hub == null) {
      throw new NotRegisteredException(
          internal,
          "kind \""
              + source
              + "\" has no internal version to convert through; register \""
              + internal
              + "\" with addInternalTypes");
    }
    return hub;
  }

  /** The source as conversion sees it: a defaulted copy when its type has defaulters. */
  private Object defaulted(Object in) {
    if (!defaulters.containsKey(in.getClass())) {
      return in;
    }
    Object object = converter.deepCopy(in);
    applyDefaults(object);
    return object;
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
    Map<String, Class<?>> sameVersion = typesByVersion.get(kind.groupVersion());
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

  private Object instantiate(Class<?> type) {
    try {
      return constructors.get(type).newInstance();
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
    private final List<Class<?>> types = new ArrayList<>();
    private final Map<Class<?>, GroupVersion> unversioned = new LinkedHashMap<>();
    private final Set<Class<?>> shared = new LinkedHashSet<>();
    private final List<List<GroupVersion>> priorities = new ArrayList<>();
    private final Map<Class<?>, List<Consumer<Object>>> defaulters = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();
    private final Converter.Builder conversions =
        Converter.builder().propertyModel(WireProperties.standard());
    private final Map<GroupVersionKind, FieldLabelConversion> fieldLabels = new LinkedHashMap<>();
    private boolean requireInternalVersions;

    private Builder() {}

    /**
     * Registers types in a group version, each under its simple class name as kind.
     *
     * @param version the group version
     * @param types the types
     * @return this builder
     */
    public Builder addKnownTypes(GroupVersion version, Class<?>... types) {
      Objects.requireNonNull(version, "version");
      for (Class<?> type : types) {
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
    public Builder addKnownType(GroupVersionKind kind, Class<?> type) {
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
    public Builder addInternalTypes(String group, Class<?>... types) {
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
    public Builder addUnversionedTypes(GroupVersion version, Class<?>... types) {
      addKnownTypes(version, types);
      for (Class<?> type : types) {
        unversioned.put(type, version);
      }
      return this;
    }

    /**
     * Registers types that serve as they are, with no internal version and no conversion: the
     * shared {@code meta.k8s.io/v1} kinds, aggregated discovery, and the options bound into every
     * group. {@link #requireInternalVersions()} does not ask an internal counterpart of them.
     *
     * @param version the group version
     * @param types the types, each under its simple class name
     * @return this builder
     */
    public Builder addSharedTypes(GroupVersion version, Class<?>... types) {
      addKnownTypes(version, types);
      shared.addAll(List.of(types));
      return this;
    }

    /**
     * Registers one type that serves as it is under an explicit kind, as {@link #addSharedTypes}
     * does under simple class names: a list class registered as every resource's {@code <Kind>List}
     * is one. {@link #requireInternalVersions()} does not ask an internal counterpart of it.
     *
     * @param kind the kind; group may be empty, version and kind may not
     * @param type the type
     * @return this builder
     */
    public Builder addSharedType(GroupVersionKind kind, Class<?> type) {
      addKnownType(kind, type);
      shared.add(type);
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
    public <T> Builder addDefaultingFunction(Class<T> type, Consumer<? super T> function) {
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
     * Adds conversion and deep-copy functions, usually the generated {@code GeneratedConversions}
     * of a versioned package and the {@code GeneratedDeepCopy} of each package.
     *
     * @param registrations the registrations
     * @return this builder
     */
    public Builder addConversions(ConversionRegistration... registrations) {
      for (ConversionRegistration registration : registrations) {
        conversions.add(registration);
      }
      return this;
    }

    /**
     * Adds one hand-written conversion function. Conversions run between a versioned class and its
     * internal counterpart; {@link #build()} rejects a function between two external versions.
     *
     * @param source the class converted from
     * @param target the class converted to
     * @param function the function
     * @param <A> the source class
     * @param <B> the target class
     * @return this builder
     */
    public <A, B> Builder addConversion(
        Class<A> source, Class<B> target, ConversionFunction<? super A, ? extends B> function) {
      conversions.addConversion(source, target, function);
      return this;
    }

    /**
     * Declares a pair served by the runtime converter, for classes without generated code; see
     * {@link Converter.Builder#addGenericConversion}. The pair's properties are matched by their
     * names on the wire ({@link WireProperties}).
     *
     * @param source the class converted from
     * @param target the class converted to
     * @return this builder
     */
    public Builder addGenericConversion(Class<?> source, Class<?> target) {
      conversions.addGenericConversion(source, target);
      return this;
    }

    /**
     * Registers the field-label conversion of one kind and version. Without one, a kind supports
     * {@code metadata.name} and {@code metadata.namespace} only, as in Kubernetes.
     *
     * @param kind the versioned kind
     * @param conversion the conversion
     * @return this builder
     */
    public Builder addFieldLabelConversion(GroupVersionKind kind, FieldLabelConversion conversion) {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(conversion, "conversion");
      if (fieldLabels.putIfAbsent(kind, conversion) != null) {
        problems.add("two field-label conversions are registered for \"" + kind + "\"");
      }
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
      Map<GroupVersionKind, Class<?>> typesByKind = new LinkedHashMap<>();
      Map<Class<?>, List<GroupVersionKind>> kindsByType = new LinkedHashMap<>();
      Map<Class<?>, Constructor<?>> constructors = new LinkedHashMap<>();
      for (int i = 0; i < kinds.size(); i++) {
        GroupVersionKind kind = kinds.get(i);
        Class<?> type = types.get(i);
        Class<?> previous = typesByKind.putIfAbsent(kind, type);
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

      Map<String, Class<?>> unversionedKinds = new LinkedHashMap<>();
      unversioned.forEach(
          (type, version) -> {
            Class<?> previous = unversionedKinds.putIfAbsent(type.getSimpleName(), type);
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
      fieldLabels.keySet().stream()
          .filter(kind -> !typesByKind.containsKey(kind))
          .forEach(
              kind ->
                  found.add(
                      "a field-label conversion is registered for \""
                          + kind
                          + "\", which is not a registered kind"));
      Converter converter = null;
      try {
        converter = conversions.build();
        checkStar(converter, kindsByType, found);
        checkConversionsRegistered(converter, typesByKind, found);
      } catch (ConverterBuildException e) {
        found.addAll(e.problems());
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
          constructors,
          converter,
          fieldLabels);
    }

    private static void checkStar(
        Converter converter,
        Map<Class<?>, List<GroupVersionKind>> kindsByType,
        List<String> found) {
      converter
          .conversionPairs()
          .forEach(
              (source, targets) -> {
                for (Class<?> target : targets) {
                  if (isExternalOnly(kindsByType.get(source))
                      && isExternalOnly(kindsByType.get(target))) {
                    found.add(
                        "a conversion from "
                            + source.getName()
                            + " to "
                            + target.getName()
                            + " joins two external versions; versions convert through the"
                            + " internal version only");
                  }
                }
              });
    }

    private static boolean isExternalOnly(List<GroupVersionKind> kinds) {
      return kinds != null
          && !kinds.isEmpty()
          && kinds.stream().noneMatch(kind -> kind.groupVersion().isInternal());
    }

    private void checkInternalVersions(
        Map<GroupVersionKind, Class<?>> typesByKind,
        Map<String, Set<String>> externalVersions,
        Set<String> internalGroups,
        List<String> found) {
      for (String group : externalVersions.keySet()) {
        boolean onlyUnversioned =
            typesByKind.entrySet().stream()
                .filter(entry -> entry.getKey().group().equals(group))
                .allMatch(entry -> isSharedOrUnversioned(entry.getValue()));
        if (onlyUnversioned) {
          continue;
        }
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
        for (Map.Entry<GroupVersionKind, Class<?>> entry : typesByKind.entrySet()) {
          GroupVersionKind kind = entry.getKey();
          if (kind.group().equals(group)
              && !kind.groupVersion().isInternal()
              && !isSharedOrUnversioned(entry.getValue())
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

    private boolean isSharedOrUnversioned(Class<?> type) {
      return unversioned.containsKey(type) || shared.contains(type);
    }

    /**
     * Every external kind whose group registers an internal counterpart of another class must
     * convert to it and back, or conversion would fail at run time: the usual cause is generated
     * conversions that were never registered.
     */
    private static void checkConversionsRegistered(
        Converter converter, Map<GroupVersionKind, Class<?>> typesByKind, List<String> found) {
      Set<String> reported = new LinkedHashSet<>();
      typesByKind.forEach(
          (kind, type) -> {
            if (kind.groupVersion().isInternal()) {
              return;
            }
            Class<?> hub =
                typesByKind.get(GroupVersion.internal(kind.group()).withKind(kind.kind()));
            if (hub == null || hub == type) {
              return;
            }
            List<String> missing = new ArrayList<>();
            if (!converter.canConvert(type, hub)) {
              missing.add("to");
            }
            if (!converter.canConvert(hub, type)) {
              missing.add("from");
            }
            if (!missing.isEmpty() && reported.add(type.getName())) {
              found.add(
                  "kind \""
                      + kind
                      + "\" ("
                      + type.getName()
                      + ") has an internal version ("
                      + hub.getName()
                      + ") but no conversion "
                      + String.join(" or ", missing)
                      + " it; register the generated conversions of package "
                      + type.getPackageName()
                      + " with addConversions(new "
                      + type.getPackageName()
                      + ".GeneratedConversions())");
            }
          });
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
      if (TypeAccessor.find(type).isEmpty()) {
        found.add(TypeAccessor.missing(type));
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
