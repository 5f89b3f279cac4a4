package dev.machinery.examples.operator;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The Site operator's reconciler: the Deployment and ConfigMap dependents reconciled by JOSDK's
 * workflow, the status patched (by server-side apply, JOSDK's default) with the generation acted
 * on, and, as a {@link Cleaner}, a finalizer that JOSDK adds and removes around the cleanup.
 */
@Workflow(
    dependents = {@Dependent(type = SiteDeployment.class), @Dependent(type = SiteConfigMap.class)})
public class SiteReconciler implements Reconciler<SiteResource>, Cleaner<SiteResource> {
  /** The names of the Sites cleaned up, in order. */
  final List<String> cleanedUp = new CopyOnWriteArrayList<>();

  @Override
  public UpdateControl<SiteResource> reconcile(SiteResource site, Context<SiteResource> context) {
    SiteResource patch = new SiteResource();
    patch.setMetadata(
        new ObjectMetaBuilder()
            .withName(site.getMetadata().getName())
            .withNamespace(site.getMetadata().getNamespace())
            .build());
    SiteResource.Status status = new SiteResource.Status();
    status.setObservedGeneration(site.getMetadata().getGeneration());
    status.setMessage(
        "serving "
            + site.getSpec().getImage()
            + " on "
            + site.getSpec().getReplicas()
            + " replica(s)");
    patch.setStatus(status);
    return UpdateControl.patchStatus(patch);
  }

  @Override
  public DeleteControl cleanup(SiteResource site, Context<SiteResource> context) {
    cleanedUp.add(site.getMetadata().getName());
    return DeleteControl.defaultDelete();
  }
}
