package dev.machinery.examples.operator;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import java.util.Map;

/** A Site's Service: port 80 to its pods' {@code http} port, applied with server-side apply. */
public class SiteService extends CRUDKubernetesDependentResource<Service, SiteResource> {
  /** Creates the dependent. */
  public SiteService() {
    super(Service.class);
  }

  @Override
  protected Service desired(SiteResource site, Context<SiteResource> context) {
    Map<String, String> labels = Map.of("app.kubernetes.io/instance", site.getMetadata().getName());
    return new ServiceBuilder()
        .withNewMetadata()
        .withName(site.getMetadata().getName())
        .withNamespace(site.getMetadata().getNamespace())
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .withSelector(labels)
        .addNewPort()
        .withName("http")
        .withPort(80)
        .withNewTargetPort("http")
        .endPort()
        .endSpec()
        .build();
  }
}
