package dev.machinery.conversion;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** {@link PropertyModel#javaBeans()}: record components, or public getter/setter pairs. */
final class JavaBeanProperties implements PropertyModel {
  static final JavaBeanProperties INSTANCE = new JavaBeanProperties();
  private final Map<Class<?>, List<Property>> cache = new ConcurrentHashMap<>();

  private JavaBeanProperties() {}

  @Override
  public List<Property> properties(Class<?> type) {
    return cache.computeIfAbsent(type, JavaBeanProperties::find);
  }

  private static List<Property> find(Class<?> type) {
    List<Property> properties = new ArrayList<>();
    if (type.isRecord()) {
      RecordComponent[] components = type.getRecordComponents();
      for (int i = 0; i < components.length; i++) {
        RecordComponent component = components[i];
        properties.add(
            Property.component(
                component.getName(), component.getGenericType(), i, component.getAccessor()));
      }
      return List.copyOf(properties);
    }
    for (Method getter : type.getMethods()) {
      String name = beanName(getter);
      if (name == null) {
        continue;
      }
      try {
        Method setter =
            type.getMethod(
                "set" + Character.toUpperCase(name.charAt(0)) + name.substring(1),
                getter.getReturnType());
        if (!Modifier.isStatic(setter.getModifiers())) {
          properties.add(Property.bean(name, setter.getGenericParameterTypes()[0], getter, setter));
        }
      } catch (NoSuchMethodException e) {
        // A getter without a setter is derived, not state.
      }
    }
    properties.sort(Comparator.comparing(Property::name));
    return List.copyOf(properties);
  }

  /** The bean name of a getter ({@code getFoo}, {@code isFoo} for a boolean), or null. */
  static String beanName(Method method) {
    if (Modifier.isStatic(method.getModifiers())
        || method.getParameterCount() != 0
        || method.getDeclaringClass() == Object.class) {
      return null;
    }
    String name = method.getName();
    String bare;
    if (name.startsWith("get") && name.length() > 3 && method.getReturnType() != void.class) {
      bare = name.substring(3);
    } else if (name.startsWith("is")
        && name.length() > 2
        && method.getReturnType() == boolean.class) {
      bare = name.substring(2);
    } else {
      return null;
    }
    return Character.toLowerCase(bare.charAt(0)) + bare.substring(1);
  }
}
