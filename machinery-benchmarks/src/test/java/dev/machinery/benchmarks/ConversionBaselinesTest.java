package dev.machinery.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.benchmarks.apps.v1.Deployment;
import dev.machinery.benchmarks.apps.v1.DeploymentConversions;
import dev.machinery.conversion.Converter;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.GroupVersioner;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import org.junit.jupiter.api.Test;

/** The conversion benchmark compares like with like: every path gives the same objects. */
class ConversionBaselinesTest {
  private final Scheme scheme = BenchmarkData.conversionScheme();
  private final CodecFactory codecs = CodecFactory.create(scheme);
  private final Deployment v1 =
      codecs.json().decode(BenchmarkData.deploymentJson(), Deployment.class).object();

  @Test
  void generatedHandWrittenAndGenericConversionsAgree() {
    Object generated =
        scheme.converter().convert(v1, dev.machinery.benchmarks.apps.internal.Deployment.class);
    Converter generic = BenchmarkData.genericConverter();
    assertEquals(HandWritten.toInternal(v1), generated);
    assertEquals(
        generated, generic.convert(v1, dev.machinery.benchmarks.apps.internal.Deployment.class));
    assertEquals(
        "frontend",
        ((dev.machinery.benchmarks.apps.internal.Deployment) generated)
            .getSpec()
            .getTemplate()
            .getSpec()
            .getServiceAccountName());
  }

  @Test
  void versionToVersionPathsAgree() {
    Converter converter = scheme.converter();
    Object generated =
        converter.convert(
            converter.convert(v1, dev.machinery.benchmarks.apps.internal.Deployment.class),
            dev.machinery.benchmarks.apps.v1beta1.Deployment.class);
    Converter generic = BenchmarkData.genericConverter();
    assertEquals(HandWritten.toV1beta1(HandWritten.toInternal(v1)), generated);
    assertEquals(
        generated,
        generic.convert(
            generic.convert(v1, dev.machinery.benchmarks.apps.internal.Deployment.class),
            dev.machinery.benchmarks.apps.v1beta1.Deployment.class));
  }

  @Test
  void v1CarriesRollbackToInAnAnnotation() {
    Deployment withRollback = dev.machinery.benchmarks.apps.v1.GeneratedDeepCopy.deepCopy(v1);
    withRollback.getMetadata().getAnnotations().put(DeploymentConversions.ROLLBACK_TO, "4");
    dev.machinery.benchmarks.apps.v1beta1.Deployment beta =
        (dev.machinery.benchmarks.apps.v1beta1.Deployment)
            scheme.convertToVersion(
                withRollback, GroupVersioner.of(GroupVersion.of("apps", "v1beta1")));
    assertEquals(4, beta.getSpec().getRollbackTo().getRevision());
    assertEquals(null, beta.getMetadata().getAnnotations().get(DeploymentConversions.ROLLBACK_TO));
    Deployment back =
        (Deployment) scheme.convertToVersion(beta, GroupVersioner.of(BenchmarkData.APPS_V1));
    assertEquals(withRollback, back);
    dev.machinery.benchmarks.apps.internal.Deployment expected =
        HandWritten.toInternal(HandWritten.deepCopy(withRollback));
    expected.setApiVersion(null); // an internal object names no version
    expected.setKind(null);
    assertEquals(
        expected,
        scheme.convert(withRollback, dev.machinery.benchmarks.apps.internal.Deployment.class));
  }

  @Test
  void generatedAndHandWrittenDeepCopiesAgree() {
    assertEquals(v1, dev.machinery.benchmarks.apps.v1.GeneratedDeepCopy.deepCopy(v1));
    assertEquals(v1, HandWritten.deepCopy(v1));
  }

  @Test
  void decodeConvertEncodeKeepsEveryFieldButTheVersion() throws Exception {
    byte[] out =
        codecs
            .json()
            .encodingTo(GroupVersioner.of(GroupVersion.of("apps", "v1beta1")))
            .encode(
                codecs
                    .json()
                    .decodingTo(GroupVersioner.internal())
                    .decode(BenchmarkData.deploymentJson())
                    .object());
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode expected = (ObjectNode) mapper.readTree(BenchmarkData.deploymentJson());
    expected.put("apiVersion", "apps/v1beta1");
    assertEquals(expected, mapper.readTree(out));
  }
}
