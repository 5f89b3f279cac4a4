package dev.machinery.apiserver.negotiation;

import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.MalformedIdentifierException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Decodes options sent as query parameters ({@code ListOptions} on GET, {@code DeleteOptions} on
 * DELETE) into the version the client names with {@code kind} and {@code apiVersion} (or {@code
 * queryVersion}), {@code meta.k8s.io/v1} by default, as the alternate-representations proposal
 * asks. As in kube-apiserver's parameter scheme, the option kinds are read in {@code
 * meta.k8s.io/v1} and in every group version the Scheme registers ({@code v1}, {@code apps/v1},
 * ...), whether or not the Scheme binds them there ({@link #optionsType}). Values are converted to
 * each field's type; an unknown {@code apiVersion}, a repeated single-valued parameter or an
 * unreadable value is a {@link QueryParameterException} naming it. A parameter that is no field of
 * the options is ignored, as Go's parameter codec ignores it (a server reads {@code pretty}, say,
 * itself).
 *
 * <p>Immutable and safe to share between threads.
 */
public final class QueryOptions {
  private static final String DEFAULT_VERSION = "meta.k8s.io/v1";
  private static final Set<String> OPTION_KINDS =
      Set.of(
          "ListOptions",
          "GetOptions",
          "DeleteOptions",
          "CreateOptions",
          "UpdateOptions",
          "PatchOptions");

  /** The parameters that name the options' kind and version, not their fields. */
  private static final Set<String> TYPE_PARAMETERS = Set.of("kind", "apiVersion", "queryVersion");

  /** Each options class's public setters of one argument, by name (the first of overloads). */
  private static final ClassValue<Map<String, Method>> SETTERS =
      new ClassValue<>() {
        @Override
        protected Map<String, Method> computeValue(Class<?> type) {
          Map<String, Method> setters = new HashMap<>();
          for (Method method : type.getMethods()) {
            if (method.getName().startsWith("set") && method.getParameterCount() == 1) {
              setters.putIfAbsent(method.getName(), method);
            }
          }
          return Map.copyOf(setters);
        }
      };

  private final Scheme scheme;
  private final Set<String> ignored;
  private final Set<GroupVersion> groupVersions;

  /**
   * Creates the decoder.
   *
   * @param codecs the codec factory whose Scheme holds the option kinds
   * @param ignored parameters the endpoint reads itself (such as {@code pretty} or {@code
   *     includeObject}), skipped here
   */
  public QueryOptions(CodecFactory codecs, Set<String> ignored) {
    this.scheme = codecs.scheme();
    this.ignored = Set.copyOf(ignored);
    this.groupVersions = Set.copyOf(scheme.prioritizedVersionsAllGroups());
  }

  /**
   * Returns the class of an option kind in a version, as kube-apiserver's parameter scheme reads
   * it: the class the Scheme registers for it, else, for {@code ListOptions}, {@code GetOptions},
   * {@code DeleteOptions}, {@code CreateOptions}, {@code UpdateOptions} and {@code PatchOptions} in
   * any group version the Scheme registers, their {@code meta.k8s.io/v1} class (Kubernetes binds
   * them into every group version).
   *
   * @param kind the options kind and the version the client names
   * @return the class, or empty when the server does not read that kind in that version
   */
  public Optional<Class<?>> optionsType(GroupVersionKind kind) {
    Optional<Class<?>> registered = scheme.typeFor(kind);
    if (registered.isPresent() || !OPTION_KINDS.contains(kind.kind())) {
      return registered;
    }
    if (!groupVersions.contains(kind.groupVersion())) {
      return Optional.empty();
    }
    return scheme.typeFor(GroupVersionKind.fromApiVersionAndKind(DEFAULT_VERSION, kind.kind()));
  }

  /**
   * Decodes the options of one request.
   *
   * @param query the query parameters, each with its values in order
   * @param defaultKind {@code ListOptions} for GET, {@code DeleteOptions} for DELETE
   * @return the options object, of the class registered for the kind and version
   * @throws QueryParameterException naming the parameter at fault
   */
  public Object decode(Map<String, List<String>> query, String defaultKind) {
    Objects.requireNonNull(query, "query");
    String kind = single(query, "kind", defaultKind);
    String apiVersion = single(query, "apiVersion", null);
    String queryVersion = single(query, "queryVersion", null);
    if (apiVersion != null && queryVersion != null && !apiVersion.equals(queryVersion)) {
      throw new QueryParameterException(
          "queryVersion",
          "apiVersion=" + apiVersion + " and queryVersion=" + queryVersion + " disagree");
    }
    String version =
        apiVersion != null ? apiVersion : queryVersion != null ? queryVersion : DEFAULT_VERSION;
    GroupVersionKind gvk;
    try {
      gvk = GroupVersionKind.fromApiVersionAndKind(version, kind);
    } catch (MalformedIdentifierException e) {
      throw new QueryParameterException(
          "apiVersion", "apiVersion=" + version + ": " + e.getMessage());
    }
    Class<?> type =
        optionsType(gvk)
            .orElseThrow(
                () ->
                    new QueryParameterException(
                        apiVersion != null
                            ? "apiVersion"
                            : queryVersion != null ? "queryVersion" : "kind",
                        "options of kind \""
                            + kind
                            + "\" in apiVersion \""
                            + version
                            + "\" are not understood by this server; it reads "
                            + DEFAULT_VERSION));
    GroupVersionKind bound =
        scheme.typeFor(gvk).isPresent()
            ? gvk
            : GroupVersionKind.fromApiVersionAndKind(DEFAULT_VERSION, gvk.kind());
    Map<String, Method> setters = SETTERS.get(type);
    Map<String, Object> fields = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
      String name = parameter.getKey();
      if (TYPE_PARAMETERS.contains(name) || ignored.contains(name) || name.isEmpty()) {
        continue;
      }
      Method setter = setters.get(setterName(name));
      if (setter != null) {
        fields.put(name, value(setter, name, parameter.getValue()));
      }
    }
    return set(scheme.newObject(bound), setters, fields);
  }

  /**
   * The options (made by the Scheme, their {@code apiVersion} and {@code kind} set) set through
   * their setters, each value already of its setter's type: what reading them as JSON gave, without
   * writing and reading JSON for each request.
   */
  private static Object set(
      Object options, Map<String, Method> setters, Map<String, Object> fields) {
    String at = "(query)";
    try {
      for (Map.Entry<String, Object> field : fields.entrySet()) {
        at = field.getKey();
        setters.get(setterName(at)).invoke(options, field.getValue());
      }
      return options;
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new QueryParameterException(
          at, "parameter \"" + at + "\" was refused: " + cause.getMessage());
    } catch (ReflectiveOperationException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "the options class " + options.getClass().getName() + " cannot be set", e);
    }
  }

  private static String single(Map<String, List<String>> query, String name, String otherwise) {
    List<String> values = query.get(name);
    if (values == null || values.isEmpty()) {
      return otherwise;
    }
    if (values.size() > 1) {
      throw new QueryParameterException(
          name, "parameter \"" + name + "\" is given " + values.size() + " times");
    }
    return values.get(0);
  }

  private static Object value(Method setter, String name, List<String> values) {
    Class<?> target = setter.getParameterTypes()[0];
    if (List.class.isAssignableFrom(target)) {
      Object element =
          setter.getGenericParameterTypes()[0] instanceof ParameterizedType
              ? ((ParameterizedType) setter.getGenericParameterTypes()[0])
                  .getActualTypeArguments()[0]
              : String.class;
      if (element != String.class) {
        throw new QueryParameterException(
            name, "parameter \"" + name + "\" cannot be sent in a query");
      }
      return List.copyOf(values);
    }
    if (values.size() != 1) {
      throw new QueryParameterException(
          name, "parameter \"" + name + "\" takes one value, got " + values.size());
    }
    String text = values.get(0);
    if (target == String.class) {
      return text;
    }
    if (target == boolean.class || target == Boolean.class) {
      // Go's strconv.ParseBool, which kube-apiserver's parameter codec uses.
      if (List.of("1", "t", "T", "true", "TRUE", "True").contains(text)) {
        return true;
      }
      if (List.of("0", "f", "F", "false", "FALSE", "False").contains(text)) {
        return false;
      }
      throw new QueryParameterException(
          name, "parameter \"" + name + "\" is \"" + text + "\"; expected true or false");
    }
    if (target == long.class
        || target == Long.class
        || target == int.class
        || target == Integer.class) {
      try {
        long number = Long.parseLong(text);
        if (target == int.class || target == Integer.class) {
          if (number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
            throw new NumberFormatException();
          }
          return (int) number;
        }
        return number;
      } catch (NumberFormatException e) {
        throw new QueryParameterException(
            name, "parameter \"" + name + "\" is \"" + text + "\"; expected a whole number");
      }
    }
    throw new QueryParameterException(name, "parameter \"" + name + "\" cannot be sent in a query");
  }

  /** The name of the setter of a parameter: {@code setLabelSelector} for {@code labelSelector}. */
  private static String setterName(String parameter) {
    return "set" + Character.toUpperCase(parameter.charAt(0)) + parameter.substring(1);
  }
}
