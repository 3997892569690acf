#!/bin/bash
cd /tmp/plan11c/drv
./ab.sh ab-all.txt 1 15 Q2 Q1 Q3 Q4 Q5 Q6 Q7 Q8 Q9 Q10 Q11 Q12 Q13 Q14 Q15 Q16 Q17 Q18 Q19 Q20 Q21 Q22
./ab.sh ab-q21.txt 1 0 Q21
./ab.sh ab-all.txt 1 15 Q2 Q1 Q3 Q4 Q5 Q6 Q7 Q8 Q9 Q10 Q11 Q12 Q13 Q14 Q15 Q16 Q17 Q18 Q19 Q20 Q21 Q22
./ab.sh ab-q21.txt 1 0 Q21
./ab.sh ab-q21.txt 2 0 Q21
./ab.sh ab-all.txt 2 15 Q2 Q1 Q3 Q4 Q5 Q6 Q7 Q8 Q9 Q10 Q11 Q12 Q13 Q14 Q15 Q16 Q17 Q18 Q19 Q20 Q21 Q22
