/**
 * Validation as Kubernetes does it ({@code k8s.io/apimachinery/pkg/util/validation}, its {@code
 * field} package and {@code api/validation}): the name and label rules with Kubernetes' messages
 * ({@link dev.machinery.unversioned.validation.Validation}), errors that name a field path, a type,
 * the bad value and why ({@link dev.machinery.unversioned.validation.FieldError} on a {@link
 * dev.machinery.unversioned.validation.FieldPath}), and {@code ObjectMeta} validation for create
 * and update ({@link dev.machinery.unversioned.validation.ObjectMetaValidation}). A list of field
 * errors becomes an {@code Invalid} Status through {@code ApiErrors.newInvalid}.
 */
package dev.machinery.unversioned.validation;
