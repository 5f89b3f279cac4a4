package dev.machinery.conversion.processor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.annotation.processing.Messager;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;

/**
 * Checks the protobuf field numbers a class declares with {@code @ProtoField}: each number once,
 * and no number skipped below the highest unless {@code @ProtoReserved} lists it. A record
 * component's annotation also lands on its field and accessor; they count as one property.
 */
final class ProtoFieldCheck {
  static final String PROTO_FIELD = "dev.machinery.conversion.ProtoField";
  static final String PROTO_RESERVED = "dev.machinery.conversion.ProtoReserved";

  private final Messager messager;

  ProtoFieldCheck(Messager messager) {
    this.messager = messager;
  }

  void check(Collection<? extends Element> annotated) {
    Map<TypeElement, Map<String, Integer>> byType = new LinkedHashMap<>();
    for (Element element : annotated) {
      Element owner = element.getEnclosingElement();
      if (element.getKind() == ElementKind.RECORD_COMPONENT) {
        owner = element.getEnclosingElement();
      }
      if (!(owner instanceof TypeElement)) {
        continue;
      }
      Integer number = number(element);
      if (number == null) {
        continue;
      }
      String property = property(element);
      Map<String, Integer> properties =
          byType.computeIfAbsent((TypeElement) owner, t -> new LinkedHashMap<>());
      Integer previous = properties.putIfAbsent(property, number);
      if (previous != null && !previous.equals(number)) {
        messager.printMessage(
            Diagnostic.Kind.ERROR,
            "property "
                + property
                + " is given two protobuf field numbers, "
                + previous
                + " and "
                + number,
            element);
      }
    }
    for (Map.Entry<TypeElement, Map<String, Integer>> entry : byType.entrySet()) {
      checkType(entry.getKey(), entry.getValue());
    }
  }

  private void checkType(TypeElement type, Map<String, Integer> properties) {
    Map<Integer, List<String>> byNumber = new TreeMap<>();
    properties.forEach(
        (property, number) ->
            byNumber.computeIfAbsent(number, n -> new ArrayList<>()).add(property));
    int highest = 0;
    for (Map.Entry<Integer, List<String>> entry : byNumber.entrySet()) {
      if (entry.getKey() < 1) {
        messager.printMessage(
            Diagnostic.Kind.ERROR,
            "protobuf field number "
                + entry.getKey()
                + " of "
                + entry.getValue()
                + " is not positive",
            type);
      }
      if (entry.getValue().size() > 1) {
        messager.printMessage(
            Diagnostic.Kind.ERROR,
            "protobuf field number "
                + entry.getKey()
                + " is declared twice in "
                + type.getSimpleName()
                + ": "
                + String.join(" and ", entry.getValue()),
            type);
      }
      highest = Math.max(highest, entry.getKey());
    }
    TreeSet<Integer> reserved = reserved(type);
    List<Integer> gaps = new ArrayList<>();
    for (int n = 1; n < highest; n++) {
      if (!byNumber.containsKey(n) && !reserved.contains(n)) {
        gaps.add(n);
      }
    }
    if (!gaps.isEmpty()) {
      messager.printMessage(
          Diagnostic.Kind.ERROR,
          type.getSimpleName()
              + " skips protobuf field number"
              + (gaps.size() == 1 ? " " : "s ")
              + gaps
              + ": declare them with @ProtoReserved if the message has fields the class does not"
              + " model, or correct the numbers",
          type);
    }
    for (Integer number : reserved) {
      if (byNumber.containsKey(number)) {
        messager.printMessage(
            Diagnostic.Kind.ERROR,
            "protobuf field number "
                + number
                + " is both @ProtoReserved and declared by "
                + byNumber.get(number),
            type);
      }
    }
  }

  private static Integer number(Element element) {
    AnnotationMirror mirror = ConversionProcessor.annotation(element, PROTO_FIELD);
    if (mirror == null) {
      return null;
    }
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> value :
        mirror.getElementValues().entrySet()) {
      if (value.getKey().getSimpleName().contentEquals("value")) {
        return (Integer) value.getValue().getValue();
      }
    }
    return null;
  }

  private static TreeSet<Integer> reserved(TypeElement type) {
    TreeSet<Integer> numbers = new TreeSet<>();
    AnnotationMirror mirror = ConversionProcessor.annotation(type, PROTO_RESERVED);
    if (mirror == null) {
      return numbers;
    }
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> value :
        mirror.getElementValues().entrySet()) {
      Object raw = value.getValue().getValue();
      if (raw instanceof List) {
        for (Object item : (List<?>) raw) {
          numbers.add((Integer) ((AnnotationValue) item).getValue());
        }
      } else {
        numbers.add((Integer) raw);
      }
    }
    return numbers;
  }

  /** The property an annotated getter, field or record component stands for. */
  private static String property(Element element) {
    String name = element.getSimpleName().toString();
    if (element.getKind() == ElementKind.METHOD) {
      boolean record = element.getEnclosingElement().getKind() == ElementKind.RECORD;
      if (!record) {
        if (name.startsWith("get") && name.length() > 3) {
          return Character.toLowerCase(name.charAt(3)) + name.substring(4);
        }
        if (name.startsWith("is") && name.length() > 2) {
          return Character.toLowerCase(name.charAt(2)) + name.substring(3);
        }
      }
    }
    return name;
  }
}
