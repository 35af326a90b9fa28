; C#

; -- definitions -------------------------------------------------------------------------------------------------
(class_declaration name: (identifier) @name.definition.class)
(interface_declaration name: (identifier) @name.definition.interface)
(struct_declaration name: (identifier) @name.definition.class)
(enum_declaration name: (identifier) @name.definition.enum)
(record_declaration name: (identifier) @name.definition.class)
(method_declaration name: (identifier) @name.definition.method)
(constructor_declaration name: (identifier) @name.definition.method)
(local_function_statement name: (identifier) @name.definition.function)
(property_declaration name: (identifier) @name.definition.property)

; -- references --------------------------------------------------------------------------------------------------
(invocation_expression function: (identifier) @name.reference.call)
(invocation_expression function: (member_access_expression name: (identifier) @name.reference.call))
(object_creation_expression type: (identifier) @name.reference.class)
(object_creation_expression type: (generic_name (identifier) @name.reference.class))
(base_list (identifier) @name.reference.class)
(base_list (generic_name (identifier) @name.reference.class))
(identifier) @name.reference.identifier

; -- imports -----------------------------------------------------------------------------------------------------
(using_directive [(identifier) (qualified_name)] @import .)
(namespace_declaration name: (_) @namespace)
(file_scoped_namespace_declaration name: (_) @namespace)
