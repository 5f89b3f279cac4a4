/**
 * Dynamic admission webhooks, as kube-apiserver calls them: what a program embedding the server
 * gives the webhook admission. The server reads {@code admissionregistration.k8s.io/v1}
 * MutatingWebhookConfigurations and ValidatingWebhookConfigurations from its own storage (served by
 * {@code machinery-builtins}) and calls the webhooks they name on every write they match; a {@link
 * dev.machinery.apiserver.admission.webhook.ServiceResolver} turns a service reference into a URL,
 * and {@link dev.machinery.apiserver.admission.webhook.MatchConditions} evaluates their CEL {@code
 * matchConditions}. See {@code docs/admission.md}.
 */
package dev.machinery.apiserver.admission.webhook;
