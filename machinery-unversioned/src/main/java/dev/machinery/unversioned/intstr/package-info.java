/**
 * Values that are an integer or a string on the wire ({@code k8s.io/apimachinery/pkg/util/intstr}):
 * {@link dev.machinery.unversioned.intstr.IntOrString}, such as a port given by number or name, or
 * a count given absolutely or as a percentage ({@code maxSurge: 25%}).
 */
package dev.machinery.unversioned.intstr;
