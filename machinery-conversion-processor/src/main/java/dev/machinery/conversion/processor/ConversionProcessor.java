package dev.machinery.conversion.processor;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.tools.Diagnostic;

/**
 * Writes conversion and deep-copy code for packages marked {@code @GenerateConversions} (a
 * versioned package: {@code GeneratedConversions} and {@code GeneratedDeepCopy}) or
 * {@code @GenerateDeepCopy} ({@code GeneratedDeepCopy}), and reports as compile errors every
 * property whose value would be lost; checks the protobuf field numbers of classes that declare
 * them ({@code @ProtoField}: no number twice, no gap not listed by {@code @ProtoReserved}). Put the
 * artifact {@code machinery-conversion-processor} on the annotation processor path.
 *
 * <p>The compiler creates one instance per compilation and calls it from one thread.
 */
public final class ConversionProcessor extends AbstractProcessor {
  static final String GENERATE_CONVERSIONS = "dev.machinery.conversion.GenerateConversions";
  static final String GENERATE_DEEP_COPY = "dev.machinery.conversion.GenerateDeepCopy";

  /** Creates the processor; the compiler calls this. */
  public ConversionProcessor() {}

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    // The property-level annotations are read while generating; claiming them keeps javac from
    // warning that no processor handles them.
    return Set.of(
        GENERATE_CONVERSIONS,
        GENERATE_DEEP_COPY,
        Generator.CONVERTS_PROPERTIES,
        ProtoFieldCheck.PROTO_FIELD,
        ProtoFieldCheck.PROTO_RESERVED);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    Set<PackageElement> conversions = new LinkedHashSet<>();
    Set<PackageElement> deepCopies = new LinkedHashSet<>();
    for (TypeElement annotation : annotations) {
      if (annotation.getQualifiedName().contentEquals(ProtoFieldCheck.PROTO_FIELD)) {
        new ProtoFieldCheck(processingEnv.getMessager())
            .check(round.getElementsAnnotatedWith(annotation));
        continue;
      }
      if (annotation.getQualifiedName().contentEquals(Generator.CONVERTS_PROPERTIES)
          || annotation.getQualifiedName().contentEquals(ProtoFieldCheck.PROTO_RESERVED)) {
        continue;
      }
      boolean conversion = annotation.getQualifiedName().contentEquals(GENERATE_CONVERSIONS);
      for (Element element : round.getElementsAnnotatedWith(annotation)) {
        if (element instanceof PackageElement) {
          (conversion ? conversions : deepCopies).add((PackageElement) element);
        }
      }
    }
    deepCopies.removeAll(conversions);
    Generator generator = new Generator(processingEnv);
    for (PackageElement pkg : deepCopies) {
      generator.deepCopy(pkg);
    }
    for (PackageElement pkg : conversions) {
      AnnotationMirror mirror = annotation(pkg, GENERATE_CONVERSIONS);
      String internal = null;
      List<TypeElement> uses = new ArrayList<>();
      for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> value :
          mirror.getElementValues().entrySet()) {
        String name = value.getKey().getSimpleName().toString();
        if (name.equals("internalPackage")) {
          internal = String.valueOf(value.getValue().getValue());
        } else if (name.equals("uses")) {
          for (Object item : (List<?>) value.getValue().getValue()) {
            TypeMirror type = (TypeMirror) ((AnnotationValue) item).getValue();
            uses.add((TypeElement) ((DeclaredType) type).asElement());
          }
        }
      }
      PackageElement internalPackage =
          internal == null ? null : processingEnv.getElementUtils().getPackageElement(internal);
      if (internalPackage == null) {
        processingEnv
            .getMessager()
            .printMessage(
                Diagnostic.Kind.ERROR,
                "internal package \"" + internal + "\" of @GenerateConversions does not exist",
                pkg);
        continue;
      }
      generator.conversions(pkg, internalPackage, uses);
    }
    return true;
  }

  static AnnotationMirror annotation(Element element, String name) {
    for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
      if (((TypeElement) mirror.getAnnotationType().asElement())
          .getQualifiedName()
          .contentEquals(name)) {
        return mirror;
      }
    }
    return null;
  }
}
