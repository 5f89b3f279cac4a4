/**
 * What a ResourceQuota counts of each kind of object ({@link dev.machinery.quota.QuotaEvaluator}),
 * as Kubernetes' quota evaluators: one set of rules for the API server's {@code ResourceQuota}
 * admission plugin and the resource quota controller.
 */
module dev.machinery.quota {
  requires transitive dev.machinery.unversioned;

  exports dev.machinery.quota;
}
