package dev.machinery.core.runtime;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.AnnotatedField;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.AnnotatedMethod;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.conversion.Property;
import dev.machinery.conversion.PropertyModel;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The properties of a class as the codecs read and write them: Jackson's own view (names as on the
 * wire, {@code @JsonProperty} renames and public or annotated fields included, {@code @JsonIgnore}d
 * members left out), plus a bean's catch-all of undeclared fields (an any-getter with a setter for
 * the whole map) marked as such. The Scheme's generic conversions, the round-trip harness and the
 * negotiator's transforms all use this model, so what they convert, compare and read is what is on
 * the wire.
 *
 * <p>A property is listed only when it can be both read and written: a getter with no setter is
 * derived, not state. Properties come in the order the codecs write them (the catch-all last) and
 * are cached per class. Safe for concurrent use.
 */
public final class WireProperties implements PropertyModel {
  private static final WireProperties STANDARD = new WireProperties();

  private final Map<Class<?>, List<Property>> cache = new ConcurrentHashMap<>();

  /**
   * The mapper whose view the model gives, made when a class's properties are first asked for: a
   * Scheme holds the model, and building one need not start Jackson (its first mapper costs a fresh
   * JVM about a tenth of a second, which a server can spend on another thread meanwhile).
   */
  private static final class Mapper {
    static final ObjectMapper MAPPER =
        JsonMapper.builder().disable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES).build();
  }

  private WireProperties() {}

  /**
   * Returns the model with the codecs' settings (the codecs change how values are bound, never
   * which properties a class has).
   *
   * @return the shared model
   */
  public static WireProperties standard() {
    return STANDARD;
  }

  @Override
  public List<Property> properties(Class<?> type) {
    List<Property> cached = cache.get(type);
    if (cached == null) {
      cached = find(type);
      cache.putIfAbsent(type, cached);
    }
    return cached;
  }

  /**
   * Finds the property of the given wire name.
   *
   * @param type the class
   * @param name the name on the wire
   * @return the property, or null when the class has none of that name
   */
  public Property property(Class<?> type, String name) {
    for (Property property : properties(type)) {
      if (property.name().equals(name) && !property.isCatchAll()) {
        return property;
      }
    }
    return null;
  }

  private List<Property> find(Class<?> type) {
    ObjectMapper mapper = Mapper.MAPPER;
    JavaType javaType = mapper.constructType(type);
    BeanDescription reading = mapper.getSerializationConfig().introspect(javaType);
    BeanDescription writing = mapper.getDeserializationConfig().introspect(javaType);
    Map<String, BeanPropertyDefinition> written = new HashMap<>();
    for (BeanPropertyDefinition definition : writing.findProperties()) {
      written.put(definition.getName(), definition);
    }
    List<Property> properties = new ArrayList<>();
    if (type.isRecord()) {
      RecordComponent[] components = type.getRecordComponents();
      for (BeanPropertyDefinition definition : reading.findProperties()) {
        for (int i = 0; i < components.length; i++) {
          if (components[i].getName().equals(definition.getInternalName())) {
            properties.add(
                Property.component(
                    definition.getName(),
                    components[i].getGenericType(),
                    i,
                    components[i].getAccessor()));
          }
        }
      }
    } else {
      AnnotatedMember anyGetter = reading.findAnyGetter();
      for (BeanPropertyDefinition definition : reading.findProperties()) {
        AnnotatedMember accessor = definition.getAccessor();
        if (accessor != null
            && anyGetter != null
            && accessor.getMember().equals(anyGetter.getMember())) {
          continue; // the catch-all, added below
        }
        BeanPropertyDefinition counterpart = written.get(definition.getName());
        AnnotatedMember mutator = counterpart == null ? null : counterpart.getMutator();
        if (accessor == null
            || !(mutator instanceof AnnotatedMethod || mutator instanceof AnnotatedField)) {
          continue; // derived (no setter), or written through a creator only
        }
        AccessibleObject writer = (AccessibleObject) mutator.getMember();
        Type valueType =
            writer instanceof Method setter
                ? setter.getGenericParameterTypes()[0]
                : ((Field) writer).getGenericType();
        properties.add(
            Property.bean(
                definition.getName(), valueType, (AccessibleObject) accessor.getMember(), writer));
      }
      Property catchAll = catchAll(type, reading, writing);
      if (catchAll != null) {
        properties.add(catchAll);
      }
    }
    return List.copyOf(properties);
  }

  /** The any-getter with a setter of the whole map beside it (fabric8's additionalProperties). */
  private static Property catchAll(
      Class<?> type, BeanDescription reading, BeanDescription writing) {
    AnnotatedMember anyGetter = reading.findAnyGetter();
    if (!(anyGetter instanceof AnnotatedMethod getter) || writing.findAnySetterAccessor() == null) {
      return null;
    }
    Method method = getter.getAnnotated();
    String name = method.getName();
    if (!name.startsWith("get") || name.length() < 4) {
      return null;
    }
    try {
      Method setter = type.getMethod("set" + name.substring(3), method.getReturnType());
      String bean = Character.toLowerCase(name.charAt(3)) + name.substring(4);
      return Property.catchAll(bean, setter.getGenericParameterTypes()[0], method, setter);
    } catch (NoSuchMethodException e) {
      return null; // filled entry by entry only: nothing to copy as a whole
    }
  }
}
