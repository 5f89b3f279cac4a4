/**
 * CEL validation rules of CustomResourceDefinitions for the Machinery API server, on Google's CEL
 * for Java. {@link dev.machinery.cel.CelValidationRules} is the entry point: give it to {@code
 * ApiServer.Builder.customResourceDefinitions(ValidationRules)} and every definition's {@code
 * x-kubernetes-validations} are checked when it is written and enforced on its objects, with
 * kube-apiserver's field paths, messages and cost limits.
 */
package dev.machinery.cel;
