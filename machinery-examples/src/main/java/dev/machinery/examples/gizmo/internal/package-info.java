/** The internal form of the Gizmo API; its deep copies are generated. */
@GenerateDeepCopy
package dev.machinery.examples.gizmo.internal;

import dev.machinery.conversion.GenerateDeepCopy;
