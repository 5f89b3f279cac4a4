package dev.machinery.core.runtime;

import dev.machinery.core.schema.GroupVersionKind;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Modifier;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads and writes the {@code apiVersion} and {@code kind} of the objects of one class, as Go's
 * {@code meta.TypeAccessor} does: through {@link ApiObject} for a class that implements it, or
 * through public {@code getApiVersion()}, {@code setApiVersion(String)}, {@code getKind()} and
 * {@code setKind(String)} methods for a model written elsewhere (fabric8's, or any generated
 * model), so that such classes register in a {@link Scheme} as they are.
 *
 * <p>Accessors are looked up once per class and cached. Immutable and safe for concurrent use.
 */
public abstract class TypeAccessor {
  private static final ClassValue<Optional<TypeAccessor>> ACCESSORS =
      new ClassValue<>() {
        @Override
        protected Optional<TypeAccessor> computeValue(Class<?> type) {
          return Optional.ofNullable(create(type));
        }
      };

  TypeAccessor() {}

  /**
   * Returns the accessor of a class, if it has one.
   *
   * @param type the class
   * @return the accessor, or empty if the class neither implements {@link ApiObject} nor has the
   *     four public accessor methods
   */
  public static Optional<TypeAccessor> find(Class<?> type) {
    return ACCESSORS.get(Objects.requireNonNull(type, "type"));
  }

  /**
   * Returns the accessor of a class.
   *
   * @param type the class
   * @return the accessor
   * @throws IllegalArgumentException if the class has none; the message says what it lacks
   */
  public static TypeAccessor of(Class<?> type) {
    return find(type).orElseThrow(() -> new IllegalArgumentException(missing(type)));
  }

  /**
   * Returns the accessor of an object's class.
   *
   * @param object the object
   * @return the accessor
   * @throws IllegalArgumentException if the class has none
   */
  public static TypeAccessor of(Object object) {
    return of(Objects.requireNonNull(object, "object").getClass());
  }

  /** The reason a class has no accessor, for messages. */
  static String missing(Class<?> type) {
    return type.getName()
        + " cannot carry its apiVersion and kind: it neither implements "
        + ApiObject.class.getName()
        + " nor has public getApiVersion(), setApiVersion(String), getKind() and"
        + " setKind(String) methods";
  }

  /**
   * Returns an object's {@code apiVersion}.
   *
   * @param object an object of the accessor's class
   * @return the value, or {@code null}
   */
  public abstract String apiVersion(Object object);

  /**
   * Sets an object's {@code apiVersion}.
   *
   * @param object an object of the accessor's class
   * @param apiVersion the value, or {@code null}
   */
  public abstract void setApiVersion(Object object, String apiVersion);

  /**
   * Returns an object's {@code kind}.
   *
   * @param object an object of the accessor's class
   * @return the value, or {@code null}
   */
  public abstract String kind(Object object);

  /**
   * Sets an object's {@code kind}.
   *
   * @param object an object of the accessor's class
   * @param kind the value, or {@code null}
   */
  public abstract void setKind(Object object, String kind);

  /**
   * Returns the group/version/kind an object's {@code apiVersion} and {@code kind} name; empty
   * parts where they are not set.
   *
   * @param object an object of the accessor's class
   * @return the object's own idea of its kind
   * @throws dev.machinery.core.schema.MalformedIdentifierException if the fields are malformed
   */
  public GroupVersionKind groupVersionKind(Object object) {
    String apiVersion = apiVersion(object);
    String kind = kind(object);
    return GroupVersionKind.fromApiVersionAndKind(
        apiVersion == null ? "" : apiVersion, kind == null ? "" : kind);
  }

  private static TypeAccessor create(Class<?> type) {
    if (ApiObject.class.isAssignableFrom(type)) {
      return ThroughInterface.INSTANCE;
    }
    if (!Modifier.isPublic(type.getModifiers())) {
      return null;
    }
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    MethodType getter = MethodType.methodType(String.class);
    MethodType setter = MethodType.methodType(void.class, String.class);
    try {
      return new ThroughMethods(
          lookup.findVirtual(type, "getApiVersion", getter).asType(objectGetter()),
          lookup.findVirtual(type, "setApiVersion", setter).asType(objectSetter()),
          lookup.findVirtual(type, "getKind", getter).asType(objectGetter()),
          lookup.findVirtual(type, "setKind", setter).asType(objectSetter()));
    } catch (NoSuchMethodException | IllegalAccessException e) {
      return null;
    }
  }

  private static MethodType objectGetter() {
    return MethodType.methodType(String.class, Object.class);
  }

  private static MethodType objectSetter() {
    return MethodType.methodType(void.class, Object.class, String.class);
  }

  /** The library's own kinds: plain interface calls. */
  private static final class ThroughInterface extends TypeAccessor {
    static final ThroughInterface INSTANCE = new ThroughInterface();

    @Override
    public String apiVersion(Object object) {
      return ((ApiObject) object).getApiVersion();
    }

    @Override
    public void setApiVersion(Object object, String apiVersion) {
      ((ApiObject) object).setApiVersion(apiVersion);
    }

    @Override
    public String kind(Object object) {
      return ((ApiObject) object).getKind();
    }

    @Override
    public void setKind(Object object, String kind) {
      ((ApiObject) object).setKind(kind);
    }
  }

  /** A model written elsewhere: its public accessor methods, found once. */
  private static final class ThroughMethods extends TypeAccessor {
    private final MethodHandle getApiVersion;
    private final MethodHandle setApiVersion;
    private final MethodHandle getKind;
    private final MethodHandle setKind;

    ThroughMethods(
        MethodHandle getApiVersion,
        MethodHandle setApiVersion,
        MethodHandle getKind,
        MethodHandle setKind) {
      this.getApiVersion = getApiVersion;
      this.setApiVersion = setApiVersion;
      this.getKind = getKind;
      this.setKind = setKind;
    }

    @Override
    public String apiVersion(Object object) {
      try {
        return (String) getApiVersion.invokeExact(object);
      } catch (Throwable e) {
        throw rethrow(e);
      }
    }

    @Override
    public void setApiVersion(Object object, String apiVersion) {
      try {
        setApiVersion.invokeExact(object, apiVersion);
      } catch (Throwable e) {
        throw rethrow(e);
      }
    }

    @Override
    public String kind(Object object) {
      try {
        return (String) getKind.invokeExact(object);
      } catch (Throwable e) {
        throw rethrow(e);
      }
    }

    @Override
    public void setKind(Object object, String kind) {
      try {
        setKind.invokeExact(object, kind);
      } catch (Throwable e) {
        throw rethrow(e);
      }
    }

    private static RuntimeException rethrow(Throwable e) {
      if (e instanceof RuntimeException) {
        return (RuntimeException) e;
      }
      if (e instanceof Error) {
        throw (Error) e;
      }
      return new IllegalStateException("an apiVersion or kind accessor failed", e);
    }
  }
}
