/**
 * A versioned example API, the worked example of docs/conversion.md: {@link
 * dev.machinery.examples.gizmo.GizmoApi} registers Gizmo in versions v1 and v2 and an internal
 * form, with generated conversions and one hand-written rename.
 */
package dev.machinery.examples.gizmo;
