/**
 * The dynamic admission webhooks of the server, as kube-apiserver's {@code
 * pkg/admission/plugin/webhook}: {@link dev.machinery.apiserver.registry.webhook.Webhook} reads a
 * configuration's webhooks, {@link dev.machinery.apiserver.registry.webhook.Rule} and {@code
 * Selectors} decide which are called, {@link
 * dev.machinery.apiserver.registry.webhook.WebhookClient} calls them over HTTPS and {@link
 * dev.machinery.apiserver.registry.webhook.WebhookAdmission} dispatches a write to them. It knows
 * nothing of stores: the registry's {@code AdmissionRunner} hands it JSON and converts.
 */
package dev.machinery.apiserver.registry.webhook;
