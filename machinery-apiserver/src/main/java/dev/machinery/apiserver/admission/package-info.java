/**
 * Admission, as Kubernetes' {@code admission} package: an ordered chain of plugins a server adds in
 * Java, each seeing what a write would store ({@link
 * dev.machinery.apiserver.admission.AdmissionAttributes}: operation, object, old object, user, dry
 * run). {@link dev.machinery.apiserver.admission.MutatingAdmissionPlugin}s may change the object
 * before the resource's own defaults and validation; {@link
 * dev.machinery.apiserver.admission.ValidatingAdmissionPlugin}s may only refuse, after them. {@link
 * dev.machinery.apiserver.admission.AdmissionChain} runs them; {@link
 * dev.machinery.apiserver.admission.NamespaceLifecycle} is the first plugin of every server that
 * serves Namespaces.
 */
package dev.machinery.apiserver.admission;
