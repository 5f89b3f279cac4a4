package dev.machinery.examples.operator;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import java.util.Map;

/**
 * A Site's Deployment: the Site's image and replicas, named after the Site, applied with
 * server-side apply (JOSDK's default for every kind but ConfigMaps and Secrets).
 */
public class SiteDeployment extends CRUDKubernetesDependentResource<Deployment, SiteResource> {
  /** Creates the dependent. */
  public SiteDeployment() {
    super(Deployment.class);
  }

  @Override
  protected Deployment desired(SiteResource site, Context<SiteResource> context) {
    Map<String, String> labels = Map.of("app.kubernetes.io/instance", site.getMetadata().getName());
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName(site.getMetadata().getName())
        .withNamespace(site.getMetadata().getNamespace())
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .withReplicas(site.getSpec().getReplicas())
        .withNewSelector()
        .withMatchLabels(labels)
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("web")
        .withImage(site.getSpec().getImage())
        .addNewPort()
        .withName("http")
        .withContainerPort(80)
        .endPort()
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }
}
