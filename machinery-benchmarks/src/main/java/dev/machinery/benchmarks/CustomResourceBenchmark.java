package dev.machinery.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.apiextensions.schema.StructuralSchema;
import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.builtins.BuiltinKinds;
import dev.machinery.cel.CelValidationRules;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.validation.FieldError;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the server does to a custom resource's body against the same object as a typed kind: the
 * same Deployment document decoded into its classes (the baseline), and decoded as an {@code
 * Unstructured} object then pruned, defaulted (non-nullable nulls dropped) and validated by a
 * structural schema (Kubernetes' own apps/v1 Deployment schema, references inlined, as a definition
 * would carry it), and then with two CEL rules on its spec evaluated too.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CustomResourceBenchmark {
  private static final ObjectMapper TREES = new ObjectMapper();

  private byte[] document;
  private Codec typed;
  private Codec unstructured;
  private StructuralSchema schema;
  private ValidationRules.Validator rules;

  /** Creates the benchmark state. */
  public CustomResourceBenchmark() {}

  /**
   * Builds the codecs, the schema and the compiled rules.
   *
   * @throws IOException never
   */
  @Setup
  public void setUp() throws IOException {
    document = BenchmarkData.deploymentJson();
    typed = CodecFactory.create(BenchmarkData.scheme()).json();
    unstructured = CodecFactory.create(BenchmarkData.scheme()).json();
    schema =
        BuiltinKinds.kubernetes()
            .structuralSchema(GroupVersion.of("apps", "v1").withKind("Deployment"))
            .orElseThrow();
    ObjectNode withRules = TREES.valueToTree(schema.schema());
    ObjectNode spec = (ObjectNode) withRules.get("properties").get("spec");
    spec.putArray("x-kubernetes-validations")
        .add(TREES.createObjectNode().put("rule", "!has(self.replicas) || self.replicas <= 100"))
        .add(
            TREES
                .createObjectNode()
                .put("rule", "self.template.spec.containers.all(c, c.image != '')"));
    rules =
        CelValidationRules.create().compile(TREES.treeToValue(withRules, JSONSchemaProps.class));
    List<FieldError> errors = writeWithCelRules();
    if (!errors.isEmpty()) {
      throw new IllegalStateException("the document does not pass its schema: " + errors);
    }
  }

  /**
   * The baseline: the document decoded into its classes.
   *
   * @return the object
   */
  @Benchmark
  public Object decodeTyped() {
    return typed.decode(document).object();
  }

  /**
   * The document decoded as an {@code Unstructured} object, pruned, defaulted and validated.
   *
   * @return the validation errors (none)
   */
  @Benchmark
  public List<FieldError> writeAsCustomResource() {
    Unstructured object = unstructured.decode(document, Unstructured.class).object();
    schema.prune(object.content());
    schema.applyDefaults(object.content());
    schema.pruneNonNullableNulls(object.content());
    return schema.validate(object.content());
  }

  /**
   * As {@link #writeAsCustomResource}, and the CEL rules evaluated.
   *
   * @return the errors (none)
   */
  @Benchmark
  public List<FieldError> writeWithCelRules() {
    Unstructured object = unstructured.decode(document, Unstructured.class).object();
    schema.prune(object.content());
    schema.applyDefaults(object.content());
    schema.pruneNonNullableNulls(object.content());
    List<FieldError> errors = schema.validate(object.content());
    return errors.isEmpty() ? rules.validate(object.content(), null) : errors;
  }
}
