; inherits: ecma, jsx
; JavaScript (with JSX).

(class_heritage (identifier) @name.reference.class)
(class_heritage (member_expression property: (property_identifier) @name.reference.class))
