/**
 * Auditing, as kube-apiserver's {@code audit.k8s.io/v1}: an {@link
 * dev.machinery.apiserver.audit.AuditPolicy} (read from kube-apiserver's policy file format) says
 * at which {@link dev.machinery.apiserver.audit.Level} each request is recorded, the server records
 * it as {@link dev.machinery.apiserver.audit.AuditEvent}s, one for each {@link
 * dev.machinery.apiserver.audit.Stage}, and hands them to an {@link
 * dev.machinery.apiserver.audit.AuditSink}, such as the {@link
 * dev.machinery.apiserver.audit.AuditLogWriter} that writes one JSON object a line. Turn it on with
 * {@link dev.machinery.apiserver.ApiServer.Builder#audit}.
 */
package dev.machinery.apiserver.audit;
