package dev.machinery.conversion;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * An immutable registry of conversion functions, one per (source class, target class) pair, and of
 * deep-copy functions, one per class. Lookups are by exact class: a function for {@code Frobber}
 * does not serve a subclass of it.
 *
 * <p>Functions are normally generated at compile time ({@link GenerateConversions}) and added with
 * {@link Builder#add(ConversionRegistration)}; hand-written ones are added with {@link
 * Builder#addConversion}. For classes that have no generated code (third-party types), {@link
 * Builder#addGenericConversion} declares a pair served by a runtime converter that matches
 * properties by name, with the same rules as the generator; it is about four times slower than
 * generated code and is never used for a pair that has a function.
 *
 * <p>Built once by a {@link Builder}; afterwards every method may be called from any number of
 * threads at once without locking.
 *
 * <pre>{@code
 * Converter converter = Converter.builder()
 *     .add(new dev.example.frobber.v6.GeneratedConversions())
 *     .add(new dev.example.frobber.internal.GeneratedDeepCopy())
 *     .build();
 * dev.example.frobber.internal.Frobber hub =
 *     converter.convert(v6Frobber, dev.example.frobber.internal.Frobber.class);
 * }</pre>
 */
public final class Converter {
  private final Map<Class<?>, Map<Class<?>, ConversionFunction<Object, Object>>> conversions;
  private final Map<Class<?>, DeepCopyFunction<Object>> deepCopies;
  private final ConversionScope defaultScope;

  private Converter(
      Map<Class<?>, Map<Class<?>, ConversionFunction<Object, Object>>> conversions,
      Map<Class<?>, DeepCopyFunction<Object>> deepCopies) {
    this.conversions = conversions;
    this.deepCopies = deepCopies;
    this.defaultScope = new ConversionScope(this, Set.of());
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
   * Converts an object into a new object of {@code target} with the function registered for its
   * exact class and {@code target}.
   *
   * @param in the object
   * @param target the class wanted
   * @param <T> the class wanted
   * @return the new object
   * @throws NoConversionException if no function is registered for the pair
   * @throws ConversionException if a value cannot be converted; its {@link
   *     ConversionException#path()} names the field
   */
  public <T> T convert(Object in, Class<T> target) {
    return convert(in, target, defaultScope);
  }

  /**
   * Converts an object as {@link #convert(Object, Class)} does, with flags that the conversion
   * functions can read through {@link ConversionScope#hasFlag}.
   *
   * @param in the object
   * @param target the class wanted
   * @param flags the flags
   * @param <T> the class wanted
   * @return the new object
   * @throws NoConversionException if no function is registered for the pair
   * @throws ConversionException if a value cannot be converted
   */
  public <T> T convert(Object in, Class<T> target, Set<String> flags) {
    return convert(in, target, flags.isEmpty() ? defaultScope : new ConversionScope(this, flags));
  }

  /**
   * Returns a scope with flags, for calling generated conversion functions directly.
   *
   * @param flags the flags
   * @return the scope
   */
  public ConversionScope scope(Set<String> flags) {
    return flags.isEmpty() ? defaultScope : new ConversionScope(this, flags);
  }

  <T> T convert(Object in, Class<T> target, ConversionScope scope) {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(target, "target");
    ConversionFunction<Object, Object> function = function(in.getClass(), target);
    if (function == null) {
      throw noConversion(in.getClass(), target);
    }
    Object out = function.convert(in, scope);
    @SuppressWarnings("unchecked")
    T typed = target.isPrimitive() ? (T) out : target.cast(out);
    return typed;
  }

  /**
   * Copies an object with the deep-copy function registered for its exact class.
   *
   * @param in the object
   * @param <T> its class
   * @return the copy, sharing no mutable state with {@code in}
   * @throws NoConversionException if no deep-copy function is registered for the class
   */
  @SuppressWarnings("unchecked")
  public <T> T deepCopy(T in) {
    Objects.requireNonNull(in, "in");
    DeepCopyFunction<Object> function = deepCopies.get(in.getClass());
    if (function == null) {
      throw new NoConversionException(
          in.getClass(),
          in.getClass(),
          "no deep-copy function is registered for "
              + in.getClass().getName()
              + "; annotate its package with @GenerateDeepCopy and add its GeneratedDeepCopy");
    }
    return (T) function.deepCopy(in);
  }

  /**
   * Returns whether a conversion function is registered from one class to another.
   *
   * @param source the class converted from
   * @param target the class wanted
   * @return true if {@link #convert(Object, Class)} has a function for the pair
   */
  public boolean canConvert(Class<?> source, Class<?> target) {
    return function(source, target) != null;
  }

  /**
   * Returns whether a deep-copy function is registered for a class.
   *
   * @param type the class
   * @return true if {@link #deepCopy} has a function for it
   */
  public boolean canDeepCopy(Class<?> type) {
    return deepCopies.containsKey(type);
  }

  /**
   * Returns every registered pair: each source class with the classes it converts to.
   *
   * @return source class to target classes (sources in registration order)
   */
  public Map<Class<?>, Set<Class<?>>> conversionPairs() {
    Map<Class<?>, Set<Class<?>>> pairs = new LinkedHashMap<>();
    conversions.forEach(
        (source, targets) ->
            pairs.put(source, Collections.unmodifiableSet(new LinkedHashSet<>(targets.keySet()))));
    return Collections.unmodifiableMap(pairs);
  }

  private ConversionFunction<Object, Object> function(Class<?> source, Class<?> target) {
    Map<Class<?>, ConversionFunction<Object, Object>> targets = conversions.get(source);
    return targets == null ? null : targets.get(target);
  }

  private NoConversionException noConversion(Class<?> source, Class<?> target) {
    StringBuilder message =
        new StringBuilder("no conversion from ")
            .append(source.getName())
            .append(" to ")
            .append(target.getName())
            .append(" is registered");
    Map<Class<?>, ConversionFunction<Object, Object>> targets = conversions.get(source);
    if (targets == null) {
      message.append("; nothing converts from ").append(source.getName());
    } else {
      Set<String> names = new TreeSet<>();
      targets.keySet().forEach(type -> names.add(type.getName()));
      message.append("; ").append(source.getName()).append(" converts to: ");
      message.append(String.join(", ", names));
    }
    return new NoConversionException(source, target, message.toString());
  }

  /**
   * Collects conversion and deep-copy functions for a {@link Converter}; {@link #build()} reports
   * every conflict at once.
   *
   * <p>Not thread-safe: confine a builder to one thread.
   */
  public static final class Builder {
    private final Map<Class<?>, Map<Class<?>, ConversionFunction<Object, Object>>> conversions =
        new LinkedHashMap<>();
    private final Map<Class<?>, DeepCopyFunction<Object>> deepCopies = new LinkedHashMap<>();
    private final List<Class<?>[]> generic = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private PropertyModel propertyModel = PropertyModel.javaBeans();

    private Builder() {}

    /**
     * Sets the model of properties the generic conversions match and copy by name; the default is
     * {@link PropertyModel#javaBeans()}. A Scheme sets the codecs' model, so that what is converted
     * is what is on the wire.
     *
     * @param model the property model
     * @return this builder
     */
    public Builder propertyModel(PropertyModel model) {
      this.propertyModel = Objects.requireNonNull(model, "model");
      return this;
    }

    /**
     * Registers a conversion function for one pair. A pair may have one function only.
     *
     * @param source the class converted from
     * @param target the class converted to
     * @param function the function
     * @param <A> the source class
     * @param <B> the target class
     * @return this builder
     */
    @SuppressWarnings("unchecked")
    public <A, B> Builder addConversion(
        Class<A> source, Class<B> target, ConversionFunction<? super A, ? extends B> function) {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(target, "target");
      Objects.requireNonNull(function, "function");
      ConversionFunction<Object, Object> previous =
          conversions
              .computeIfAbsent(source, s -> new LinkedHashMap<>())
              .putIfAbsent(target, (ConversionFunction<Object, Object>) function);
      if (previous != null) {
        problems.add(
            "two conversion functions are registered from "
                + source.getName()
                + " to "
                + target.getName());
      }
      return this;
    }

    /**
     * Registers a deep-copy function for one class. A class may have one function only.
     *
     * @param type the class
     * @param function the function
     * @param <T> the class
     * @return this builder
     */
    @SuppressWarnings("unchecked")
    public <T> Builder addDeepCopy(Class<T> type, DeepCopyFunction<T> function) {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(function, "function");
      if (deepCopies.putIfAbsent(type, (DeepCopyFunction<Object>) function) != null) {
        problems.add("two deep-copy functions are registered for " + type.getName());
      }
      return this;
    }

    /**
     * Adds every function of a registration, such as a generated {@code GeneratedConversions}.
     *
     * @param registration the registration
     * @return this builder
     */
    public Builder add(ConversionRegistration registration) {
      Objects.requireNonNull(registration, "registration").registerTo(this);
      return this;
    }

    /**
     * Declares a pair served by the runtime converter: properties (record components, or bean
     * getter/setter pairs) are matched by name, with the generator's rules; a source property with
     * no counterpart and no {@link NotConverted} is reported by {@link #build()}. Use it for
     * classes without generated code; it is never used for a pair that has a function. Nested
     * classes need no declaration of their own: a nested pair with no registered function (or a
     * mutable class both sides share, with no deep copy) is converted by the same rules, {@code
     * Object} values (a model's {@code Map<String, Object>} catch-all) are copied as JSON values,
     * and every problem found on the way is reported by {@link #build()} with its path.
     *
     * @param source the class converted from
     * @param target the class converted to
     * @return this builder
     */
    public Builder addGenericConversion(Class<?> source, Class<?> target) {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(target, "target");
      generic.add(new Class<?>[] {source, target});
      return this;
    }

    /**
     * Finds the function of a nested pair for a generic conversion: a registered one, or else, for
     * classes the runtime converter can read and build (a third-party model's nested classes,
     * mutable classes shared by both sides), one derived by the same rules, once per pair. Derived
     * functions serve their parents only; they are not registered pairs.
     */
    private final class NestedPairs
        implements java.util.function.BiFunction<
            Class<?>, Class<?>, ConversionFunction<Object, Object>> {
      private final Map<Class<?>, Map<Class<?>, ConversionFunction<Object, Object>>> all;
      private final Map<List<Class<?>>, GenericConversion> derived = new HashMap<>();
      private final List<String> found;

      NestedPairs(
          Map<Class<?>, Map<Class<?>, ConversionFunction<Object, Object>>> all,
          List<String> found) {
        this.all = all;
        this.found = found;
      }

      @Override
      public ConversionFunction<Object, Object> apply(Class<?> source, Class<?> target) {
        ConversionFunction<Object, Object> registered =
            all.getOrDefault(source, Map.of()).get(target);
        if (registered != null) {
          return registered;
        }
        List<Class<?>> pair = List.of(source, target);
        GenericConversion existing = derived.get(pair);
        if (existing != null) {
          return existing;
        }
        if (!GenericConversion.canDerive(source) || !GenericConversion.canDerive(target)) {
          return null;
        }
        GenericConversion plan = new GenericConversion(source, target, propertyModel);
        derived.put(pair, plan); // before preparing it: recursive types refer to themselves
        plan.prepare(this, deepCopies::containsKey, found);
        return plan;
      }
    }

    /**
     * Checks the registrations and builds the immutable converter.
     *
     * @return the converter
     * @throws ConverterBuildException with every conflict found
     */
    public Converter build() {
      List<String> found = new ArrayList<>(problems);
      Map<Class<?>, Map<Class<?>, ConversionFunction<Object, Object>>> all = new HashMap<>();
      conversions.forEach((source, targets) -> all.put(source, new HashMap<>(targets)));
      List<GenericConversion> plans = new ArrayList<>();
      for (Class<?>[] pair : generic) {
        Map<Class<?>, ConversionFunction<Object, Object>> targets =
            all.computeIfAbsent(pair[0], s -> new HashMap<>());
        if (targets.containsKey(pair[1])) {
          found.add(
              "a generic conversion is declared from "
                  + pair[0].getName()
                  + " to "
                  + pair[1].getName()
                  + ", which already has a conversion function; remove the declaration");
          continue;
        }
        GenericConversion plan = new GenericConversion(pair[0], pair[1], propertyModel);
        targets.put(pair[1], plan);
        plans.add(plan);
      }
      NestedPairs nested = new NestedPairs(all, found);
      for (GenericConversion plan : plans) {
        plan.prepare(nested, deepCopies::containsKey, found);
      }
      if (!found.isEmpty()) {
        throw new ConverterBuildException(found);
      }
      Map<Class<?>, Map<Class<?>, ConversionFunction<Object, Object>>> frozen =
          new LinkedHashMap<>();
      conversions.keySet().forEach(source -> frozen.put(source, Map.copyOf(all.get(source))));
      all.forEach((source, targets) -> frozen.putIfAbsent(source, Map.copyOf(targets)));
      return new Converter(
          Collections.unmodifiableMap(frozen),
          Collections.unmodifiableMap(new HashMap<>(deepCopies)));
    }
  }
}
