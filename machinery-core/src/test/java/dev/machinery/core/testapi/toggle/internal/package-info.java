/** Toggle's internal form: its mode is an enum. */
@GenerateDeepCopy
package dev.machinery.core.testapi.toggle.internal;

import dev.machinery.conversion.GenerateDeepCopy;
