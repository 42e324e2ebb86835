/*
 * Names a handler's action in the audit trail ("qualification.submit" reads better than the
 * route). Optional: every state-changing request is recorded, named by its route without this.
 */
package io.drivequal.service.audit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Audited {

	/** The action's name, feature first: {@code qualification.submit}. */
	String value();

}
