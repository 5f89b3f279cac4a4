package dev.machinery.conversion.processor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Types;

/** An API class as the generator sees it: a record or a bean, and its properties in order. */
final class ApiClass {
  static final String NOT_CONVERTED = "dev.machinery.conversion.NotConverted";

  /** A property: a record component, or a public getter with a public setter of the same type. */
  record Property(
      String name,
      TypeMirror type,
      String getter,
      String setter,
      int index,
      Element element,
      Optional<String> notConvertedReason) {}

  final TypeElement element;
  final boolean record;
  final Map<String, Property> properties;

  private ApiClass(TypeElement element, boolean record, Map<String, Property> properties) {
    this.element = element;
    this.record = record;
    this.properties = properties;
  }

  String qualifiedName() {
    return element.getQualifiedName().toString();
  }

  String simpleName() {
    return element.getSimpleName().toString();
  }

  /** Returns the API class of a type element, or empty if it is not a record or a bean. */
  static Optional<ApiClass> of(TypeElement type, Types types) {
    if (!type.getModifiers().contains(Modifier.PUBLIC)
        || type.getModifiers().contains(Modifier.ABSTRACT)) {
      return Optional.empty();
    }
    if (type.getKind() == ElementKind.RECORD) {
      Map<String, Property> properties = new LinkedHashMap<>();
      List<? extends RecordComponentElement> components = type.getRecordComponents();
      for (int i = 0; i < components.size(); i++) {
        RecordComponentElement component = components.get(i);
        String name = component.getSimpleName().toString();
        ExecutableElement accessor = component.getAccessor();
        properties.put(
            name,
            new Property(
                name,
                component.asType(),
                name,
                null,
                i,
                accessor == null ? component : accessor,
                notConverted(accessor == null ? component : accessor, null)));
      }
      return Optional.of(new ApiClass(type, true, properties));
    }
    if (type.getKind() != ElementKind.CLASS || !hasPublicNoArgConstructor(type)) {
      return Optional.empty();
    }
    Map<String, Property> properties = beanProperties(type, types);
    return properties.isEmpty()
        ? Optional.empty()
        : Optional.of(new ApiClass(type, false, properties));
  }

  private static boolean hasPublicNoArgConstructor(TypeElement type) {
    for (ExecutableElement constructor : ElementFilter.constructorsIn(type.getEnclosedElements())) {
      if (constructor.getParameters().isEmpty()
          && constructor.getModifiers().contains(Modifier.PUBLIC)) {
        return true;
      }
    }
    return false;
  }

  private static Map<String, Property> beanProperties(TypeElement type, Types types) {
    List<TypeElement> chain = new ArrayList<>();
    for (TypeElement current = type; current != null; current = superclass(current)) {
      if (current.getQualifiedName().contentEquals("java.lang.Object")) {
        break;
      }
      chain.add(0, current);
    }
    Map<String, ExecutableElement> getters = new LinkedHashMap<>();
    Map<String, List<ExecutableElement>> setters = new LinkedHashMap<>();
    Map<String, VariableElement> fields = new LinkedHashMap<>();
    for (TypeElement current : chain) {
      for (VariableElement field : ElementFilter.fieldsIn(current.getEnclosedElements())) {
        fields.put(field.getSimpleName().toString(), field);
      }
      for (ExecutableElement method : ElementFilter.methodsIn(current.getEnclosedElements())) {
        if (!method.getModifiers().contains(Modifier.PUBLIC)
            || method.getModifiers().contains(Modifier.STATIC)) {
          continue;
        }
        String name = method.getSimpleName().toString();
        if (method.getParameters().isEmpty()) {
          String property = getterProperty(name, method.getReturnType());
          if (property != null) {
            getters.put(property, method);
          }
        } else if (method.getParameters().size() == 1
            && name.startsWith("set")
            && name.length() > 3) {
          setters
              .computeIfAbsent(decapitalize(name.substring(3)), k -> new ArrayList<>())
              .add(method);
        }
      }
    }
    Map<String, Property> properties = new LinkedHashMap<>();
    getters.forEach(
        (name, getter) -> {
          for (ExecutableElement setter : setters.getOrDefault(name, List.of())) {
            if (types.isSameType(setter.getParameters().get(0).asType(), getter.getReturnType())) {
              properties.put(
                  name,
                  new Property(
                      name,
                      getter.getReturnType(),
                      getter.getSimpleName().toString(),
                      setter.getSimpleName().toString(),
                      -1,
                      getter,
                      notConverted(getter, fields.get(name))));
              return;
            }
          }
        });
    return properties;
  }

  private static TypeElement superclass(TypeElement type) {
    TypeMirror superclass = type.getSuperclass();
    return superclass.getKind() == TypeKind.DECLARED
        ? (TypeElement) ((DeclaredType) superclass).asElement()
        : null;
  }

  private static String getterProperty(String name, TypeMirror returnType) {
    if (name.startsWith("get") && name.length() > 3 && returnType.getKind() != TypeKind.VOID) {
      return name.equals("getClass") ? null : decapitalize(name.substring(3));
    }
    if (name.startsWith("is") && name.length() > 2 && returnType.getKind() == TypeKind.BOOLEAN) {
      return decapitalize(name.substring(2));
    }
    return null;
  }

  static String decapitalize(String name) {
    return Character.toLowerCase(name.charAt(0)) + name.substring(1);
  }

  static String capitalize(String name) {
    return Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }

  private static Optional<String> notConverted(Element getter, Element field) {
    for (Element element : new Element[] {getter, field}) {
      if (element == null) {
        continue;
      }
      for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
        if (((TypeElement) mirror.getAnnotationType().asElement())
            .getQualifiedName()
            .contentEquals(NOT_CONVERTED)) {
          for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> value :
              mirror.getElementValues().entrySet()) {
            if (value.getKey().getSimpleName().contentEquals("reason")) {
              return Optional.of(String.valueOf(value.getValue().getValue()));
            }
          }
          return Optional.of("");
        }
      }
    }
    return Optional.empty();
  }
}
