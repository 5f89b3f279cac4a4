package dev.machinery.api.generator;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;

/**
 * Writes the typed models of Kubernetes' built-in kinds while {@code machinery-api} compiles: in
 * the first round it reads the OpenAPI v2 document named by the option {@value #OPENAPI} and hands
 * javac one source a definition (see {@code docs/api-models.md}). Without the option it does
 * nothing, so it is harmless on any other compilation. It claims no annotation.
 *
 * <p>javac creates one instance a compilation and calls it from one thread; not for any other use.
 */
public final class ModelProcessor extends AbstractProcessor {
  /** The option naming the OpenAPI v2 document ({@code swagger.json}) to generate from. */
  public static final String OPENAPI = "machinery.api.openapi";

  /**
   * The option naming a directory of Kubernetes' {@code generated.proto} files, whose field numbers
   * order each model's properties as Go declares them (optional: without it, the document's order).
   */
  public static final String PROTOS = "machinery.api.protos";

  /** The option naming the Kubernetes release the document describes, such as {@code 1.33}. */
  public static final String RELEASE = "machinery.api.release";

  private boolean done;

  /** Creates the processor; javac calls it. */
  public ModelProcessor() {}

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of("*");
  }

  @Override
  public Set<String> getSupportedOptions() {
    return Set.of(OPENAPI, PROTOS, RELEASE);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  @SuppressWarnings("unchecked")
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    String document = processingEnv.getOptions().get(OPENAPI);
    if (done || document == null || round.processingOver()) {
      return false;
    }
    done = true;
    String release = processingEnv.getOptions().getOrDefault(RELEASE, "1.33");
    try {
      Object json = Json.parse(Files.readString(Path.of(document), StandardCharsets.UTF_8));
      if (!(json instanceof Map<?, ?>)) {
        throw new IllegalArgumentException(document + " is not a JSON object");
      }
      String protos = processingEnv.getOptions().get(PROTOS);
      ModelWriter writer =
          new ModelWriter(
              (Map<String, Object>) json,
              release,
              protos == null ? ProtoFieldOrder.NONE : ProtoFieldOrder.read(Path.of(protos)));
      for (Map.Entry<String, String> source : writer.sources().entrySet()) {
        try (Writer out = processingEnv.getFiler().createSourceFile(source.getKey()).openWriter()) {
          out.write(source.getValue());
        }
      }
    } catch (IOException | RuntimeException e) {
      processingEnv
          .getMessager()
          .printMessage(
              Diagnostic.Kind.ERROR,
              "cannot generate the Kubernetes models from " + document + ": " + e);
    }
    return false;
  }
}
