package dev.machinery.conversion.processor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** Compiles sources in memory with the processor, as a downstream build would. */
final class CompilerHarness {
  private CompilerHarness() {}

  record Result(
      boolean success, List<String> errors, List<String> generatedWarnings, Path output) {}

  static Result compile(Map<String, String> sources, String... extraOptions) {
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Path output;
    try {
      // Under the build directory, so that "mvn clean" removes it and nothing is left in /tmp.
      Path root = Path.of("target", "compiler-harness").toAbsolutePath();
      Files.createDirectories(root);
      output = Files.createTempDirectory(root, "compile");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<JavaFileObject> files = new ArrayList<>();
    sources.forEach(
        (name, text) ->
            files.add(
                new SimpleJavaFileObject(
                    URI.create("string:///" + name.replace('.', '/') + ".java"),
                    JavaFileObject.Kind.SOURCE) {
                  @Override
                  public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return text;
                  }
                }));
    List<String> options = new ArrayList<>();
    options.addAll(
        List.of(
            "-classpath",
            System.getProperty("java.class.path"),
            "-processor",
            ConversionProcessor.class.getName(),
            "-d",
            output.toString(),
            "-s",
            output.toString(),
            "--release",
            "17"));
    options.addAll(List.of(extraOptions));
    try (StandardJavaFileManager manager =
        compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
      boolean success = compiler.getTask(null, manager, diagnostics, options, null, files).call();
      List<String> errors =
          diagnostics.getDiagnostics().stream()
              .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
              .map(d -> d.getMessage(Locale.ROOT))
              .collect(Collectors.toList());
      List<String> generated =
          diagnostics.getDiagnostics().stream()
              .filter(d -> d.getKind() != Diagnostic.Kind.NOTE)
              .filter(d -> d.getSource() != null && d.getSource().getName().contains("Generated"))
              .map(
                  d ->
                      d.getSource().getName()
                          + ":"
                          + d.getLineNumber()
                          + ": "
                          + d.getMessage(Locale.ROOT))
              .collect(Collectors.toList());
      return new Result(success, errors, generated, output);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
