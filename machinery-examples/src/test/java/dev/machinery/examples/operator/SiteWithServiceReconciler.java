package dev.machinery.examples.operator;

import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;

/**
 * A Site reconciler with three dependents reconciled by JOSDK's workflow — a Deployment, a Service
 * and a ConfigMap — and its status patched by server-side apply.
 */
@Workflow(
    dependents = {
      @Dependent(type = SiteDeployment.class),
      @Dependent(type = SiteService.class),
      @Dependent(type = SiteConfigMap.class)
    })
public class SiteWithServiceReconciler implements Reconciler<SiteResource> {
  @Override
  public UpdateControl<SiteResource> reconcile(SiteResource site, Context<SiteResource> context) {
    return new SiteReconciler().reconcile(site, context);
  }
}
