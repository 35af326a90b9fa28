; inherits: typescript, jsx
; TSX: TypeScript with JSX.
