package dev.machinery.examples.operator;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.BooleanWithUndefined;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import java.util.Map;

/**
 * A Site's ConfigMap, holding its content: applied with server-side apply too, switched on here
 * since JOSDK writes ConfigMaps and Secrets with updates by default.
 */
@KubernetesDependent(useSSA = BooleanWithUndefined.TRUE)
public class SiteConfigMap extends CRUDKubernetesDependentResource<ConfigMap, SiteResource> {
  /** Creates the dependent. */
  public SiteConfigMap() {
    super(ConfigMap.class);
  }

  @Override
  protected ConfigMap desired(SiteResource site, Context<SiteResource> context) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(site.getMetadata().getName() + "-content")
        .withNamespace(site.getMetadata().getNamespace())
        .withLabels(Map.of("app.kubernetes.io/instance", site.getMetadata().getName()))
        .endMetadata()
        .withData(Map.of("index.html", site.getSpec().getContent()))
        .build();
  }
}
